import Foundation
import GRDB
import PhotoModel

/// Fills in collections' exact asset counts and date ranges: the same numbers a default fetch of each collection
/// gives. Smart albums and moments read their counts from the tallies and their dates from partial indexes
/// ordered by creation date, so each costs a few index steps however large the library is.
struct CollectionSummaries {
    let now: Date
    let db: Database

    init(now: Date, _ db: Database) {
        self.now = now
        self.db = db
    }

    /// Sets `assetCount`, `startDate` and `endDate` of every collection but folders.
    func summarize(_ collections: inout [AssetCollection]) throws {
        guard collections.contains(where: { $0.kind != .folder }) else { return }
        let momentDays =
            !collections.contains(where: { $0.kind == .moment })
            ? [:]
            : try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, momentDay FROM collection WHERE kind = 'moment'
                        """
                ).map { ($0[0] as String, $0[1] as Int) })
        let fixedCounts =
            !collections.contains(where: { $0.kind == .smartAlbum })
            ? [:]
            : try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(
                    db,
                    sql: """
                        SELECT subtype, assetCount FROM asset_tally WHERE day = 0
                        """
                ).map { ($0[0] as String, $0[1] as Int) })
        for index in collections.indices {
            let collection = collections[index]
            let summary: Summary
            switch collection.subtype {
            case .folderRegular:
                continue
            case .albumRegular:
                summary = try albumSummary(collection.id)
            case .moment:
                guard let day = momentDays[collection.id] else { continue }
                summary = try momentSummary(day: day)
                collections[index].locationNames = try momentLocationNames(day: day)
            case .smartAlbumRecentlyAdded:
                summary = try recentlyAddedSummary()
            case .smartAlbumDuplicates:
                summary = try duplicatesSummary()
            default:
                let terms = AssetRules.smartAlbum(collection.subtype)
                summary = Summary(
                    count: fixedCounts[collection.subtype.rawValue] ?? 0,
                    range: try dateRange(index: SmartAlbumIndex.name(collection.subtype), terms: terms, []))
            }
            collections[index].assetCount = summary.count
            collections[index].startDate = summary.range?.start
            collections[index].endDate = summary.range?.end
        }
    }

    private struct Summary {
        var count: Int
        var range: (start: Timestamp, end: Timestamp)?
    }

    private func albumSummary(_ album: String) throws -> Summary {
        let terms = ["album_asset.albumId = ?"] + AssetRules.visibility()
        let join = "album_asset JOIN asset ON asset.id = album_asset.assetId"
        let count = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM \(join) WHERE \(terms.joined(separator: " AND "))"),
            arguments: [album])!
        return Summary(count: count, range: count == 0 ? nil : try dateRange(from: join, terms: terms, [album]))
    }

    private func momentSummary(day: Int) throws -> Summary {
        let count =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT assetCount FROM asset_tally WHERE subtype = 'moment' AND day = ?"),
                arguments: [day]) ?? 0
        return Summary(
            count: count,
            range: try dateRange(
                index: "asset_moment_order",
                terms: ["asset.localDay = ?"] + AssetRules.visibility(), [day]))
    }

    /// A moment's cities, the most photographed first, at most three.
    private func momentLocationNames(day: Int) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT place.city FROM asset JOIN place ON place.id = asset.placeId
                    WHERE asset.localDay = ? AND \(AssetRules.visibility().joined(separator: " AND "))
                    GROUP BY place.city ORDER BY count(*) DESC, place.city LIMIT 3
                    """), arguments: [day])
    }

    /// Duplicates counts its members through the index of the grouped assets, a few thousand in a large library.
    private func duplicatesSummary() throws -> Summary {
        let terms = AssetRules.smartAlbum(.smartAlbumDuplicates)
        let count = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM asset WHERE \(terms.joined(separator: " AND "))"))!
        return Summary(count: count, range: count == 0 ? nil : try dateRange(from: "asset", terms: terms, []))
    }

    /// Recently Added sums its days' tallies and takes its range from each day's first and last asset.
    private func recentlyAddedSummary() throws -> Summary {
        let days = try Row.fetchAll(
            db,
            sql: """
                SELECT day, assetCount FROM asset_tally WHERE subtype = 'smartAlbumRecentlyAdded' AND day >= ?
                """, arguments: [AssetRules.firstRecentDay(now: now)])
        var summary = Summary(count: 0, range: nil)
        for row in days {
            summary.count += row[1] as Int
            guard
                let range = try dateRange(
                    index: "asset_recently_added_order",
                    terms: ["asset.addedDay = ?"] + AssetRules.visibility(), [row[0] as Int])
            else { continue }
            guard let current = summary.range else {
                summary.range = range
                continue
            }
            summary.range = (min(current.start, range.start), max(current.end, range.end))
        }
        return summary
    }

    private func dateRange(index: String, terms: [String], _ arguments: StatementArguments) throws
        -> (start: Timestamp, end: Timestamp)?
    {
        try dateRange(from: "asset INDEXED BY \(index)", terms: terms, arguments)
    }

    /// The creation dates of the first and last dated asset meeting `terms`.
    private func dateRange(from source: String, terms: [String], _ arguments: StatementArguments) throws
        -> (start: Timestamp, end: Timestamp)?
    {
        func edge(_ direction: String) throws -> Timestamp? {
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT asset.creationTime, asset.creationOffset FROM \(source)
                        WHERE \((terms + ["asset.creationTime IS NOT NULL"]).joined(separator: " AND "))
                        ORDER BY asset.creationTime \(direction) LIMIT 1
                        """), arguments: arguments
            ).map { Timestamp(secondsSince1970: $0[0], utcOffsetSeconds: $0[1] ?? 0) }
        }
        guard let start = try edge("ASC"), let end = try edge("DESC") else { return nil }
        return (start, end)
    }
}
