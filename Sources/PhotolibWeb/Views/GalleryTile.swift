import CompactJSON
import PhotoLibrary

/// What the page needs of an asset to lay out and draw its tile: its shape, kind, flags and the version its
/// thumbnail URL carries.
struct GalleryTile: Sendable, Hashable {
    var id: String
    /// Displayed size (after EXIF orientation and the current edit): the tile keeps this shape.
    var width: Int
    var height: Int
    var mediaType: MediaType
    var duration: Double
    var isFavorite: Bool
    var isHidden: Bool
    var isTrashed: Bool
    /// Changes whenever the pixels change: "o" for the original, "e" and the edit's time for an edit. A revert
    /// brings "o" back, whose thumbnail the browser may still hold.
    var version: String
    /// The calendar day the photo was taken, in its own local time (`YYYY-MM-DD`), or "undated".
    var day: String

    init(_ asset: Asset) {
        id = asset.id
        width = max(asset.pixelWidth, 1)
        height = max(asset.pixelHeight, 1)
        mediaType = asset.mediaType
        duration = asset.duration
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
        isTrashed = asset.isTrashed
        if asset.hasAdjustments, let modified = asset.modificationDate {
            version = "e" + String(Int64(modified.secondsSince1970 * 1000), radix: 36)
        } else {
            version = "o"
        }
        day = asset.creationDate?.localDay ?? "undated"
    }

    /// Flag bits of the page's tile array (api.js reads them back).
    static let favoriteFlag = 1, hiddenFlag = 2, trashedFlag = 4

    /// Writes the tile as the page reads it: `[id, width, height, mediaType, flags, version, duration]`.
    func write(to json: inout JSONWriter) {
        json.beginArray()
        json.string(id)
        json.int(width)
        json.int(height)
        json.string(mediaType.rawValue)
        json.int((isFavorite ? Self.favoriteFlag : 0) | (isHidden ? Self.hiddenFlag : 0) | (isTrashed ? Self.trashedFlag : 0))
        json.string(version)
        json.double((duration * 10).rounded() / 10)
        json.endArray()
    }
}
