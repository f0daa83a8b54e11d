import Foundation
import GRDB
import PhotoModel
import PredicateQuery

/// How collections are selected and ordered: the work behind `LibraryDatabase.fetchCollections` and the collection
/// lists observers follow.
enum CollectionFetch {
    private static let sortKeys: Set<String> = ["title", "kind", "subtype", "assetCount", "startDate", "endDate", "id"]

    /// The collections `query` selects, in its order, each with its exact count and date range.
    ///
    /// Without a sort: a folder's children in their order (`parent`); the top level newest first
    /// (`topLevelUserCollections`); otherwise smart albums, then albums and folders oldest first, then moments by day.
    static func collections(matching query: CollectionQuery, now: Date, _ db: Database) throws -> [AssetCollection] {
        let predicate = try query.predicate.map { try QueryPredicate.checked($0, schema: .collections) }
        for descriptor in query.sort ?? [] where !sortKeys.contains(descriptor.key) {
            throw LibraryError.invalidParameter("query.sort.\(descriptor.key)")
        }
        if let limit = query.limit, limit < 0 { throw LibraryError.invalidParameter("query.limit") }
        var conditions: [String] = []
        var arguments = StatementArguments()
        var order = """
            CASE kind WHEN 'smartAlbum' THEN 0 WHEN 'moment' THEN 2 ELSE 1 END,
            CASE WHEN kind IN ('album', 'folder') THEN createdTime ELSE 0 END, position, id
            """
        if let kind = query.kind {
            conditions.append("kind = ?")
            arguments += [kind.rawValue]
        }
        if let subtype = query.subtype {
            conditions.append("subtype = ?")
            arguments += [subtype.rawValue]
        }
        if let ids = query.ids {
            guard ids.count <= 30_000 else { throw LibraryError.invalidParameter("query.ids") }
            conditions.append(ids.isEmpty ? "0" : "id IN (\(databaseQuestionMarks(count: ids.count)))")
            arguments += StatementArguments(ids)
        }
        if let parent = query.parent {
            guard
                let kind = try String.fetchOne(db, sql: "SELECT kind FROM collection WHERE id = ?", arguments: [parent])
            else { throw LibraryError.notFound(id: parent) }
            guard kind == CollectionKind.folder.rawValue else { throw LibraryError.invalidParameter("query.parent") }
            conditions.append("parentId = ?")
            arguments += [parent]
            order = "position, createdTime, id"
        }
        if query.topLevelUserCollections == true {
            conditions.append("kind IN ('album', 'folder') AND parentId IS NULL")
            order = "createdTime DESC, position DESC, id"
        }
        if let asset = query.containingAsset {
            let holders = try holders(of: asset, now: now, db)
            conditions.append(
                """
                (kind = 'album' AND id IN (SELECT albumId FROM album_asset WHERE assetId = ?))
                OR (kind = 'moment' AND momentDay IS ?)
                OR (kind = 'smartAlbum' AND subtype IN (\(holders.smartAlbums.map { "'\($0.rawValue)'" }.joined(separator: ", "))))
                """)
            arguments += [asset, holders.momentDay]
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.map { "(\($0))" }.joined(separator: " AND ")
        var collections = try CollectionRecord.fetchAll(
            db, sql: "SELECT \(CollectionRecord.Column.selection) FROM collection\(whereClause) ORDER BY \(order)",
            arguments: arguments
        ).compactMap(\.collection)
        try CollectionSummaries(now: now, db).summarize(&collections)
        if let predicate {
            collections = collections.filter { collection in predicate.evaluate { collection.predicateValue(of: $0) } }
        }
        if let sort = query.sort, !sort.isEmpty {
            collections.sort { lhs, rhs in
                for descriptor in sort {
                    let comparison = Self.compare(lhs, rhs, key: descriptor.key)
                    if comparison != 0 { return descriptor.ascending ? comparison < 0 : comparison > 0 }
                }
                return lhs.id < rhs.id
            }
        }
        if let limit = query.limit { collections = Array(collections.prefix(limit)) }
        return collections
    }

    /// The smart albums whose rule holds `assetId`, and the day of its moment (nil when in none).
    private static func holders(of assetId: String, now: Date, _ db: Database)
        throws -> (smartAlbums: [CollectionSubtype], momentDay: Int?)
    {
        let subtypes = CollectionSubtype.smartAlbums
        let rules = subtypes.map { AssetRules.smartAlbum($0, now: now) }
        let visible = AssetRules.visibility().joined(separator: " AND ")
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT \(rules.map { "(\($0.terms.joined(separator: " AND ")))" }.joined(separator: ", ")),
                      CASE WHEN \(visible) THEN asset.localDay END
                    FROM asset WHERE asset.id = ?
                    """, arguments: StatementArguments(rules.flatMap(\.arguments)) + [assetId])
        else { throw LibraryError.notFound(id: assetId) }
        let held = subtypes.indices.filter { row[$0] as Bool }.map { subtypes[$0] }
        return (held, row[subtypes.count])
    }

    private static func compare(_ lhs: AssetCollection, _ rhs: AssetCollection, key: String) -> Int {
        func order<T: Comparable>(_ a: T?, _ b: T?) -> Int {
            switch (a, b) {
            case let (a?, b?): a < b ? -1 : (a > b ? 1 : 0)
            case (nil, nil): 0
            case (nil, _): -1
            case (_, nil): 1
            }
        }
        switch key {
        case "title": return order(lhs.title, rhs.title)
        case "kind": return order(lhs.kind.rawValue, rhs.kind.rawValue)
        case "subtype": return order(lhs.subtype.rawValue, rhs.subtype.rawValue)
        case "assetCount": return order(lhs.assetCount, rhs.assetCount)
        case "startDate": return order(lhs.startDate, rhs.startDate)
        case "endDate": return order(lhs.endDate, rhs.endDate)
        default: return order(lhs.id, rhs.id)
        }
    }
}

extension AssetCollection {
    /// The value of a collection predicate key, in the predicate's domain.
    func predicateValue(of key: PredicateKey) -> PredicateValue? {
        switch key.name {
        case "localIdentifier": .text(id)
        case "title": .text(title)
        case "kind": .text(kind.rawValue)
        case "subtype": .text(subtype.rawValue)
        case "assetCount": assetCount.map { .integer(Int64($0)) }
        case "startDate": startDate.map { .real($0.secondsSince1970) }
        case "endDate": endDate.map { .real($0.secondsSince1970) }
        default: nil
        }
    }
}

/// A `collection` row, before its summary (count and dates) is added.
struct CollectionRecord: FetchableRecord {
    /// The columns read, in the order selected.
    enum Column: Int, PositionedColumn {
        case id, kind, subtype, title, parentId

        var expression: String { "\(self)" }
    }

    /// Nil for a kind or subtype this version does not know.
    let collection: AssetCollection?

    init(row: Row) {
        guard let kind = CollectionKind(rawValue: row[Column.kind]),
            let subtype = CollectionSubtype(rawValue: row[Column.subtype])
        else {
            collection = nil
            return
        }
        collection = AssetCollection(
            id: row[Column.id], kind: kind, subtype: subtype, title: row[Column.title], assetCount: nil,
            startDate: nil, endDate: nil, parentId: row[Column.parentId])
    }
}
