import CompactJSON
import PhotoLibrary

/// A group of duplicates as the Duplicates view shows it (CONTRACT §17): its members best first, as the daemon orders
/// them, each with what a person compares copies by, and why the first is the one a merge keeps.
struct DuplicateGroup: Sendable, Equatable {
    /// What sets a group's best member before the next one: more pixels, else a larger file, else the earlier added.
    enum KeptBecause: String, Sendable {
        case pixels, fileSize, addedDate
    }

    struct Member: Sendable, Equatable {
        var tile: GalleryTile
        var pixelWidth: Int
        var pixelHeight: Int
        var fileSize: Int64
        var creationDate: Timestamp?
        var addedDate: Timestamp
        var originalFilename: String

        init(_ asset: Asset) {
            tile = GalleryTile(asset)
            pixelWidth = asset.pixelWidth
            pixelHeight = asset.pixelHeight
            fileSize = asset.fileSize
            creationDate = asset.creationDate
            addedDate = asset.addedDate
            originalFilename = asset.originalFilename
        }

        var pixels: Int { pixelWidth * pixelHeight }
    }

    /// Best first.
    var members: [Member]

    /// Why the first member is kept; nil when the members are not (or no longer) in the daemon's order of best, as
    /// when one of them was edited since the group was made.
    var keptBecause: KeptBecause? {
        guard members.count > 1 else { return nil }
        let best = members[0], next = members[1]
        if best.pixels != next.pixels { return best.pixels > next.pixels ? .pixels : nil }
        if best.fileSize != next.fileSize { return best.fileSize > next.fileSize ? .fileSize : nil }
        return best.addedDate <= next.addedDate ? .addedDate : nil
    }

    /// The groups of `ids` (as `fetchDuplicates` answers) with the members found among `assets`, in the daemon's
    /// order; a member missing (gone since) is left out, and a group left with fewer than two with it.
    static func groups(_ ids: [[String]], assets: [Member]) -> [DuplicateGroup] {
        let byId = Dictionary(assets.map { ($0.tile.id, $0) }, uniquingKeysWith: { _, last in last })
        return ids.compactMap { group in
            let members = group.compactMap { byId[$0] }
            return members.count > 1 ? DuplicateGroup(members: members) : nil
        }
    }

    /// Writes the group as the page reads it: `{keptBecause, members: [{id, version, width, height, fileSize,
    /// creationDate, addedDate, filename, favorite}]}`, `keptBecause` one of `pixels`, `fileSize`, `addedDate` or
    /// null, the dates RFC 3339 with the photo's own offset (`creationDate` null when unknown).
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("keptBecause"); json.optional(keptBecause) { $0.string($1.rawValue) }
        json.key("members")
        json.array(members) { json, member in
            json.beginObject()
            json.key("id"); json.string(member.tile.id)
            json.key("version"); json.string(member.tile.version)
            json.key("width"); json.int(member.pixelWidth)
            json.key("height"); json.int(member.pixelHeight)
            json.key("fileSize"); json.int(member.fileSize)
            json.key("creationDate"); json.optional(member.creationDate) { $0.string($1.rfc3339) }
            json.key("addedDate"); json.string(member.addedDate.rfc3339)
            json.key("filename"); json.string(member.originalFilename)
            json.key("favorite"); json.bool(member.tile.isFavorite)
            json.endObject()
        }
        json.endObject()
    }
}
