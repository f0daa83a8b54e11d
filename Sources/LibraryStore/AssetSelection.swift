import Foundation
import GRDB
import PhotoModel
import PredicateQuery

/// An `AssetQuery` compiled to SQL with bound arguments only.
struct AssetSelection {
    var from = "asset"
    var conditions: [String] = []
    var arguments = StatementArguments()
    /// The ORDER BY terms; the last one makes the order total.
    var orderTerms: [(expression: String, ascending: Bool)] = []
    var limit: Int?
    /// The most assets the result can hold, when the query bounds it (a list of ids, a fetch limit).
    var sizeBound: Int?
    /// The smart album whose tally counts the whole result: set for a default fetch of the library or of a smart
    /// album kept by a fixed rule, so that counting a million assets is one row read.
    var tally: CollectionSubtype?

    var order: [String] { orderTerms.map { "\($0.expression) \($0.ascending ? "ASC" : "DESC")" } }

    /// The ORDER BY expression of an album's own order.
    private static let albumOrder = "album_asset.position"

    /// Compiles `query`, looking up the collection it names (`NotFound` when there is none).
    static func compiling(_ query: AssetQuery, now: Date, in db: Database) throws -> AssetSelection {
        var collection: (id: String, subtype: CollectionSubtype)?
        if let id = query.collection {
            guard
                let subtype = try String.fetchOne(
                    db, sql: "SELECT subtype FROM collection WHERE id = ?", arguments: [id]
                )
                .flatMap(CollectionSubtype.init(rawValue:))
            else { throw LibraryError.notFound(id: id) }
            collection = (id, subtype)
        }
        return try AssetSelection(query: query, collection: collection, now: now)
    }

    /// Whether the result is in an album's own order rather than by sort keys.
    var isInAlbumOrder: Bool { orderTerms.first?.expression == Self.albumOrder }

    /// Compiles `query`; `collection` is the looked-up collection the query names, if any.
    init(query: AssetQuery, collection: (id: String, subtype: CollectionSubtype)?, now: Date) throws(LibraryError) {
        let includeBurstFrames = query.includeAllBurstAssets == true || query.burstIdentifier != nil || query.ids != nil
        var ordersByAlbum = false
        switch collection?.subtype {
        case .albumRegular?:
            from = "album_asset JOIN asset ON asset.id = album_asset.assetId"
            add("album_asset.albumId = ?", [collection!.id])
            ordersByAlbum = true
            conditions += AssetRules.visibility(
                includeHidden: query.includeHidden == true,
                includeTrashed: query.includeTrashed == true,
                includeBurstFrames: includeBurstFrames)
        case .moment?:
            add("asset.localDay = (SELECT momentDay FROM collection WHERE id = ?)", [collection!.id])
            conditions += AssetRules.visibility(includeBurstFrames: includeBurstFrames)
        case .smartAlbumRecentlyAdded?:
            conditions += AssetRules.recentlyAdded(includeBurstFrames: includeBurstFrames)
            arguments += [AssetRules.firstRecentDay(now: now)]
        case let subtype? where subtype.kind == .smartAlbum:
            conditions += AssetRules.smartAlbum(subtype, includeBurstFrames: includeBurstFrames)
        case .folderRegular?:
            throw .invalidParameter("query.collection")
        default:
            conditions += AssetRules.visibility(
                includeHidden: query.includeHidden == true,
                includeTrashed: query.includeTrashed == true,
                includeBurstFrames: includeBurstFrames)
        }
        if let ids = query.ids {
            guard ids.count <= 30_000 else { throw .invalidParameter("query.ids") }
            add(ids.isEmpty ? "0" : "asset.id IN (\(databaseQuestionMarks(count: ids.count)))", StatementArguments(ids))
            sizeBound = ids.count
        }
        if let mediaTypes = query.mediaTypes {
            let values = Set(mediaTypes.map(\.photoKitValue)).sorted()
            add(
                values.isEmpty ? "0" : "asset.mediaType IN (\(databaseQuestionMarks(count: values.count)))",
                StatementArguments(values))
        }
        if let burstIdentifier = query.burstIdentifier {
            add("asset.burstIdentifier = ?", [burstIdentifier])
        }
        if let text = query.predicate {
            let compiled = PredicateSQL(
                try QueryPredicate.checked(text, schema: .assets), columns: PredicateSQL.assetColumns)
            add(compiled.sql, compiled.arguments)
        }
        if let sort = query.sort, !sort.isEmpty {
            for descriptor in sort {
                guard let column = descriptor.key == "id" ? "asset.id" : PredicateSQL.assetColumns[descriptor.key]
                else {
                    throw .invalidParameter("query.sort.\(descriptor.key)")
                }
                orderTerms.append((column, descriptor.ascending))
            }
            orderTerms.append(("asset.id", true))
        } else if ordersByAlbum {
            orderTerms = [(Self.albumOrder, true)]
        } else if collection?.subtype == .smartAlbumDuplicates {
            // In group order: each group's members together, best first.
            orderTerms = [(DuplicateGroups.group(), true), (DuplicateGroups.position(), true), ("asset.id", true)]
        } else {
            orderTerms = [("asset.creationTime", true), ("asset.id", true)]
        }
        if let limit = query.limit {
            guard limit >= 0 else { throw .invalidParameter("query.limit") }
            self.limit = limit
            sizeBound = Swift.min(sizeBound ?? limit, limit)
        }
        let departuresFromDefault: [Bool] = [
            query.ids != nil, query.mediaTypes != nil, query.burstIdentifier != nil, query.predicate != nil,
            query.limit != nil,
            query.includeHidden == true, query.includeTrashed == true, includeBurstFrames,
        ]
        let isDefault = !departuresFromDefault.contains(true)
        switch collection?.subtype {
        case nil where isDefault: tally = .smartAlbumUserLibrary
        case let subtype? where isDefault && AssetRules.fixedSmartAlbums.contains(subtype): tally = subtype
        default: break
        }
    }

    private mutating func add(_ condition: String, _ values: StatementArguments) {
        conditions.append(condition)
        arguments += values
    }

    private var whereClause: String {
        conditions.isEmpty ? "" : " WHERE " + conditions.map { "(\($0))" }.joined(separator: " AND ")
    }

    /// The size of the whole result (capped by the fetch limit), from the tally when one counts it.
    func count(_ db: Database) throws -> Int {
        if let tally {
            return try Int.fetchOne(
                db.cachedStatement(sql: "SELECT assetCount FROM asset_tally WHERE subtype = ? AND day = 0"),
                arguments: [tally.rawValue]) ?? 0
        }
        let sql =
            limit.map { "SELECT count(*) FROM (SELECT 1 FROM \(from)\(whereClause) LIMIT \($0))" }
            ?? "SELECT count(*) FROM \(from)\(whereClause)"
        return try Int.fetchOne(db, sql: sql, arguments: arguments)!
    }

    /// The size of the whole result, known without counting when a first page holds all of it: it came out
    /// shorter than asked for, or as large as the result can be.
    func count(ofFirstPage rows: Int, pageSize: Int, offset: Int) -> Int? {
        guard offset == 0 else { return nil }
        let asked = limit.map { Swift.min($0, pageSize) } ?? pageSize
        return rows < asked || rows == sizeBound ? rows : nil
    }

    /// SQL selecting `columns` for the positions `[offset, offset + count)` of the result, in order.
    func pageSQL(columns: String, offset: Int, count: Int) -> String {
        let end = limit.map { Swift.min($0, offset + count) } ?? offset + count
        let rows = Swift.max(0, end - offset)
        return
            "SELECT \(columns) FROM \(from)\(whereClause) ORDER BY \(order.joined(separator: ", ")) LIMIT \(rows) OFFSET \(offset)"
    }

    /// The order terms that make up a member's sort key: all but a final ascending `asset.id`, which
    /// `SortedResult` applies itself as the last tie-breaker.
    var keyTerms: [(expression: String, ascending: Bool)] {
        guard let last = orderTerms.last, last.expression == "asset.id", last.ascending else { return orderTerms }
        return Array(orderTerms.dropLast())
    }

    /// SQL selecting each member's id then its sort-key values: all members in order, or only those among
    /// `idCount` ids bound after `arguments`.
    func keyedMembersSQL(restrictedToIdCount idCount: Int? = nil) -> String {
        var conditions = self.conditions
        if let idCount { conditions.append("asset.id IN (\(databaseQuestionMarks(count: idCount)))") }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.map { "(\($0))" }.joined(separator: " AND ")
        let columns = (["asset.id"] + keyTerms.map(\.expression)).joined(separator: ", ")
        return "SELECT \(columns) FROM \(from)\(whereClause)"
            + (idCount == nil ? " ORDER BY \(order.joined(separator: ", "))" : "")
    }

    /// SQL selecting the ids of the whole result, in order.
    var idsSQL: String {
        "SELECT asset.id FROM \(from)\(whereClause) ORDER BY \(order.joined(separator: ", "))"
            + (limit.map { " LIMIT \($0)" } ?? "")
    }
}
