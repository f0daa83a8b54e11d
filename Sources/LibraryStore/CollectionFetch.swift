import Foundation
import GRDB
import PhotoModel

extension LibraryDatabase {
    /// One page of collections and the size of the whole result, read at one consistent state.
    public func fetchCollections(_ query: CollectionQuery, offset: Int = 0, pageSize: Int = 500) async throws -> CollectionPage {
        guard offset >= 0 else { throw LibraryError.invalidParameter("offset") }
        guard pageSize >= 0 else { throw LibraryError.invalidParameter("pageSize") }
        let now = Date()
        return try await writer.read { db in
            let all = try Self.collections(matching: query, now: now, db)
            let page = all.dropFirst(offset).prefix(pageSize)
            return CollectionPage(count: all.count, collections: Array(page), token: try token(db))
        }
    }

    /// The ordered ids of a whole collection result, with the token they were read at.
    public func fetchCollectionIds(_ query: CollectionQuery) async throws -> (ids: [String], token: ChangeToken) {
        let now = Date()
        return try await writer.read { db in
            (try Self.collections(matching: query, now: now, db).map(\.id), try token(db))
        }
    }

    private static let sortKeys: Set<String> = ["title", "kind", "subtype", "assetCount", "startDate", "endDate", "id"]

    static func collections(matching query: CollectionQuery, now: Date, _ db: Database) throws -> [AssetCollection] {
        if query.predicate != nil {
            throw LibraryError.invalidPredicate(reason: "predicates are not supported by this version of photolibd")
        }
        var conditions: [String] = []
        var arguments = StatementArguments()
        var order = "position ASC"
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
            guard try String.fetchOne(db, sql: "SELECT kind FROM collection WHERE id = ?", arguments: [parent]) != nil
            else { throw LibraryError.notFound(id: parent) }
            conditions.append("parentId = ?")
            arguments += [parent]
        }
        if query.topLevelUserCollections == true {
            conditions.append("kind IN ('album', 'folder') AND parentId IS NULL")
            order = "createdTime DESC, position DESC"
        }
        if let asset = query.containingAsset {
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM asset WHERE id = ?", arguments: [asset]) != nil
            else { throw LibraryError.notFound(id: asset) }
            conditions.append("id IN (SELECT albumId FROM album_asset WHERE assetId = ?)")
            arguments += [asset]
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.map { "(\($0))" }.joined(separator: " AND ")
        var collections = try Row.fetchAll(
            db, sql: "SELECT id, kind, subtype, title, parentId FROM collection\(whereClause) ORDER BY \(order)",
            arguments: arguments
        ).compactMap { row -> AssetCollection? in
            guard let kind = CollectionKind(rawValue: row[1]), let subtype = CollectionSubtype(rawValue: row[2]) else { return nil }
            return AssetCollection(id: row[0], kind: kind, subtype: subtype, title: row[3], assetCount: nil,
                                   startDate: nil, endDate: nil, parentId: row[4])
        }
        if query.containingAsset != nil, let asset = query.containingAsset {
            // Smart albums that hold the asset by rule.
            let smart = try Row.fetchAll(db, sql: "SELECT id, subtype, title FROM collection WHERE kind = 'smartAlbum' ORDER BY position")
            for row in smart {
                guard let subtype = CollectionSubtype(rawValue: row[1]),
                      query.kind == nil || query.kind == .smartAlbum, query.subtype == nil || query.subtype == subtype,
                      query.ids == nil || query.ids!.contains(row[0])
                else { continue }
                let rule = AssetSelection.rule(for: subtype, now: now)
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM asset WHERE asset.id = ? AND (\(rule.sql))",
                                     arguments: [asset] + rule.arguments) != nil {
                    collections.append(AssetCollection(id: row[0], kind: .smartAlbum, subtype: subtype, title: row[2],
                                                       assetCount: nil, startDate: nil, endDate: nil, parentId: nil))
                }
            }
        }
        for index in collections.indices where collections[index].kind != .folder {
            let summary = try assetSummary(of: collections[index], now: now, db)
            collections[index].assetCount = summary.count
            collections[index].startDate = summary.start
            collections[index].endDate = summary.end
        }
        if let sort = query.sort, !sort.isEmpty {
            for descriptor in sort where !Self.sortKeys.contains(descriptor.key) {
                throw LibraryError.invalidParameter("query.sort.\(descriptor.key)")
            }
            collections.sort { lhs, rhs in
                for descriptor in sort {
                    let comparison = Self.compare(lhs, rhs, key: descriptor.key)
                    if comparison != 0 { return descriptor.ascending ? comparison < 0 : comparison > 0 }
                }
                return lhs.id < rhs.id
            }
        }
        if let limit = query.limit {
            guard limit >= 0 else { throw LibraryError.invalidParameter("query.limit") }
            collections = Array(collections.prefix(limit))
        }
        return collections
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

    /// Count and date range of a collection's visible assets.
    private static func assetSummary(of collection: AssetCollection, now: Date, _ db: Database)
        throws -> (count: Int, start: Timestamp?, end: Timestamp?) {
        let selection = try AssetSelection(query: AssetQuery(collection: collection.id),
                                           collection: (collection.id, collection.subtype), now: now)
        let count = try Int.fetchOne(db, sql: selection.countSQL, arguments: selection.arguments)!
        guard count > 0 else { return (0, nil, nil) }
        func date(_ direction: String) throws -> Timestamp? {
            let sql = "SELECT asset.creationTime, asset.creationOffset FROM \(selection.from) WHERE "
                + selection.conditions.map { "(\($0))" }.joined(separator: " AND ")
                + " AND asset.creationTime IS NOT NULL ORDER BY asset.creationTime \(direction) LIMIT 1"
            return try Row.fetchOne(db, sql: sql, arguments: selection.arguments).map {
                Timestamp(secondsSince1970: $0[0], utcOffsetSeconds: $0[1] ?? 0)
            }
        }
        return (count, try date("ASC"), try date("DESC"))
    }
}
