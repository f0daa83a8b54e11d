import Foundation
import PhotoModel

/// Which assets a fetch shows and which assets each smart album and moment holds, as SQL terms over one
/// `asset` row called `row` (`asset` in queries, `NEW` or `OLD` in triggers). Fetches, counts, partial indexes
/// and the tally triggers all use these terms, so a count always equals the size of the fetch it summarises.
enum AssetRules {
    /// The terms a default fetch applies, minus those the query's options relax.
    static func visibility(
        _ row: String = "asset", includeHidden: Bool = false, includeTrashed: Bool = false,
        includeBurstFrames: Bool = false
    ) -> [String] {
        var terms: [String] = []
        if !includeHidden { terms.append("\(row).isHidden = 0") }
        if !includeTrashed { terms.append("\(row).trashedTime IS NULL") }
        if !includeBurstFrames { terms.append("\(row).collapsesIntoBurst = 0") }
        return terms
    }

    /// The terms of a smart album whose membership does not depend on the date: all but Recently Added.
    static func smartAlbum(_ subtype: CollectionSubtype, _ row: String = "asset", includeBurstFrames: Bool = false)
        -> [String]
    {
        let shown = visibility(row, includeBurstFrames: includeBurstFrames)
        switch subtype {
        case .smartAlbumUserLibrary:
            return shown
        case .smartAlbumFavorites:
            return ["\(row).isFavorite = 1"] + shown
        case .smartAlbumVideos:
            return ["\(row).mediaType = \(MediaType.video.photoKitValue)"] + shown
        case .smartAlbumAllHidden:
            return ["\(row).isHidden = 1"]
                + visibility(row, includeHidden: true, includeBurstFrames: includeBurstFrames)
        case .smartAlbumPanoramas:
            return [
                "\(row).mediaType = \(MediaType.image.photoKitValue)",
                "(\(row).mediaSubtypes & \(MediaSubtypes.photoPanorama.rawValue) != 0"
                    + " OR (\(row).pixelHeight > 0 AND \(row).pixelWidth >= 2 * \(row).pixelHeight))",
            ] + shown
        case .smartAlbumScreenshots:
            return ["\(row).mediaSubtypes & \(MediaSubtypes.photoScreenshot.rawValue) != 0"] + shown
        case .smartAlbumLivePhotos:
            return ["\(row).mediaSubtypes & \(MediaSubtypes.photoLive.rawValue) != 0"] + shown
        case .smartAlbumBursts:
            return ["\(row).burstIdentifier IS NOT NULL"] + shown
        case .smartAlbumRecentlyDeleted:
            return ["\(row).trashedTime IS NOT NULL"]
        case .smartAlbumRAW:
            return ["\(row).isRAW = 1"] + shown
        case .smartAlbumSelfPortraits:
            return [hasSubtype(.photoSelfPortrait, row)] + shown
        case .smartAlbumSlomoVideos:
            return ["\(row).mediaType = \(MediaType.video.photoKitValue)", hasSubtype(.videoHighFrameRate, row)] + shown
        case .smartAlbumTimelapses:
            return ["\(row).mediaType = \(MediaType.video.photoKitValue)", hasSubtype(.videoTimelapse, row)] + shown
        case .smartAlbumAnimated:
            return ["\(row).mediaType = \(MediaType.image.photoKitValue)", hasSubtype(.photoAnimated, row)] + shown
        case .smartAlbumDepthEffect:
            return ["\(row).mediaType = \(MediaType.image.photoKitValue)", hasSubtype(.photoDepthEffect, row)] + shown
        case .smartAlbumDuplicates:
            return ["\(row).rowid IN (SELECT assetRow FROM duplicate_member)"] + shown
        case .smartAlbumLongExposures:
            // No camera's metadata tells a long exposure (Apple makes them of Live Photos on the phone): none here.
            return ["0"]
        case .smartAlbumRecentlyAdded, .albumRegular, .moment, .folderRegular:
            preconditionFailure("\(subtype) has no fixed rule")
        }
    }

    /// The term of assets that have `subtype`.
    private static func hasSubtype(_ subtype: MediaSubtypes, _ row: String) -> String {
        "\(row).mediaSubtypes & \(subtype.rawValue) != 0"
    }

    /// The terms of Recently Added; they bind one value, `firstRecentDay(now:)`.
    static func recentlyAdded(_ row: String = "asset", includeBurstFrames: Bool = false) -> [String] {
        ["\(row).addedDay >= ?"] + visibility(row, includeBurstFrames: includeBurstFrames)
    }

    /// The terms of any smart album at `now`, with the values they bind.
    static func smartAlbum(_ subtype: CollectionSubtype, now: Date) -> (terms: [String], arguments: [Int]) {
        subtype == .smartAlbumRecentlyAdded ? (recentlyAdded(), [firstRecentDay(now: now)]) : (smartAlbum(subtype), [])
    }

    /// Smart albums kept by `smartAlbum(_:_:)` and counted in the tallies. Duplicates is counted through its own
    /// index instead: its groups change as fingerprints come, not with the columns the tallies follow.
    static let fixedSmartAlbums = CollectionSubtype.smartAlbums.filter {
        $0 != .smartAlbumRecentlyAdded && $0 != .smartAlbumDuplicates
    }

    /// How many days back Recently Added reaches: it holds the assets added on a UTC day from
    /// `today - recentDays` on.
    static let recentDays = 30

    /// The first UTC day number whose additions are in Recently Added at `now`.
    static func firstRecentDay(now: Date) -> Int {
        dayNumber(ofSecondsSince1970: now.timeIntervalSince1970) - recentDays
    }

    /// The UTC day number (days since 1970-01-01) of a Unix time.
    static func dayNumber(ofSecondsSince1970 seconds: Double) -> Int {
        Int((seconds / 86_400).rounded(.down))
    }

    /// A generated column's expression: the calendar day, in the asset's own local time, it was created on.
    static let localDaySQL = """
        CAST((creationTime + coalesce(creationOffset, 0)) / 86400.0 AS INTEGER)
          - ((creationTime + coalesce(creationOffset, 0)) / 86400.0
             < CAST((creationTime + coalesce(creationOffset, 0)) / 86400.0 AS INTEGER))
        """

    /// A generated column's expression: the UTC day the asset was added on.
    static let addedDaySQL = "CAST(addedTime / 86400 AS INTEGER)"
}

/// A counter the tally triggers keep: how many assets a smart album or moment shows, per day where it matters.
struct TallyBucket: Sendable {
    /// `collection.subtype` of what is counted.
    var subtype: CollectionSubtype
    /// SQL giving the bucket's day for `row`: 0 for fixed smart albums, the added day for Recently Added,
    /// the local creation day for moments.
    var day: @Sendable (String) -> String
    /// SQL terms an asset row must meet to be counted.
    var terms: @Sendable (String) -> [String]

    /// Every bucket, in a fixed order.
    static let all: [TallyBucket] =
        AssetRules.fixedSmartAlbums.map { subtype in
            TallyBucket(subtype: subtype, day: { _ in "0" }, terms: { AssetRules.smartAlbum(subtype, $0) })
        } + [
            TallyBucket(
                subtype: .smartAlbumRecentlyAdded, day: { "\($0).addedDay" }, terms: { AssetRules.visibility($0) }),
            TallyBucket(
                subtype: .moment, day: { "\($0).localDay" },
                terms: { ["\($0).localDay IS NOT NULL"] + AssetRules.visibility($0) }),
        ]
}
