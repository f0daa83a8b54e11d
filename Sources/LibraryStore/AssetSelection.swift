import Foundation
import GRDB
import PhotoModel

/// An `AssetQuery` compiled to SQL with bound arguments only.
struct AssetSelection {
    var from = "asset"
    var conditions: [String] = []
    var arguments = StatementArguments()
    /// The ORDER BY terms; the last one makes the order total.
    var orderTerms: [(expression: String, ascending: Bool)] = []
    var limit: Int?

    var order: [String] { orderTerms.map { "\($0.expression) \($0.ascending ? "ASC" : "DESC")" } }

    /// The asset keys a query may sort on, and their columns.
    static let sortColumns: [String: String] = [
        "creationDate": "asset.creationTime", "modificationDate": "asset.modificationTime",
        "addedDate": "asset.addedTime", "pixelWidth": "asset.pixelWidth", "pixelHeight": "asset.pixelHeight",
        "duration": "asset.duration", "isFavorite": "asset.isFavorite", "isHidden": "asset.isHidden",
        "mediaType": "asset.mediaType", "burstIdentifier": "asset.burstIdentifier",
        "originalFilename": "asset.originalFilename", "fileSize": "asset.fileSize", "id": "asset.id",
    ]

    static let visible = "asset.isHidden = 0 AND asset.trashedTime IS NULL"

    /// The rule that keeps a smart album's membership; `now` anchors Recently Added.
    static func rule(for subtype: CollectionSubtype, now: Date) -> (sql: String, arguments: StatementArguments) {
        switch subtype {
        case .smartAlbumUserLibrary: (visible, [])
        case .smartAlbumFavorites: ("asset.isFavorite = 1 AND \(visible)", [])
        case .smartAlbumVideos: ("asset.mediaType = \(MediaType.video.photoKitValue) AND \(visible)", [])
        case .smartAlbumRecentlyAdded:
            ("asset.addedTime >= ? AND \(visible)", [now.timeIntervalSince1970 - 30 * 86_400])
        case .smartAlbumAllHidden: ("asset.isHidden = 1 AND asset.trashedTime IS NULL", [])
        case .smartAlbumPanoramas:
            ("""
             asset.mediaType = \(MediaType.image.photoKitValue) AND (asset.mediaSubtypes & \(MediaSubtypes.photoPanorama.rawValue) != 0
             OR asset.pixelWidth >= 2 * asset.pixelHeight) AND \(visible)
             """, [])
        case .smartAlbumScreenshots:
            ("asset.mediaSubtypes & \(MediaSubtypes.photoScreenshot.rawValue) != 0 AND \(visible)", [])
        case .smartAlbumLivePhotos:
            ("asset.mediaSubtypes & \(MediaSubtypes.photoLive.rawValue) != 0 AND \(visible)", [])
        case .smartAlbumBursts: ("asset.burstIdentifier IS NOT NULL AND \(visible)", [])
        case .smartAlbumRecentlyDeleted: ("asset.trashedTime IS NOT NULL", [])
        case .smartAlbumRAW:
            ("""
             EXISTS (SELECT 1 FROM resource WHERE resource.assetId = asset.id
             AND (resource.type = 'alternatePhoto' OR resource.mimeType IN ('image/x-adobe-dng', 'image/x-canon-cr2',
             'image/x-canon-cr3', 'image/x-nikon-nef', 'image/x-sony-arw', 'image/x-fuji-raf', 'image/x-olympus-orf',
             'image/x-panasonic-rw2'))) AND \(visible)
             """, [])
        case .albumRegular, .moment, .folderRegular: (visible, [])
        }
    }

    /// Compiles `query`; `collection` is the looked-up collection the query names, if any.
    init(query: AssetQuery, collection: (id: String, subtype: CollectionSubtype)?, now: Date) throws(LibraryError) {
        var ordersByAlbum = false
        switch collection?.subtype {
        case .albumRegular?:
            from = "album_asset JOIN asset ON asset.id = album_asset.assetId"
            add("album_asset.albumId = ?", [collection!.id])
            ordersByAlbum = true
            addVisibilityFilters(query)
        case let subtype? where subtype.kind == .smartAlbum:
            let rule = Self.rule(for: subtype, now: now)
            add(rule.sql, rule.arguments)
        case .folderRegular?:
            throw .invalidParameter("query.collection")
        default:
            addVisibilityFilters(query)
        }
        if let ids = query.ids {
            guard ids.count <= 30_000 else { throw .invalidParameter("query.ids") }
            add(ids.isEmpty ? "0" : "asset.id IN (\(databaseQuestionMarks(count: ids.count)))", StatementArguments(ids))
        }
        if let mediaTypes = query.mediaTypes {
            let values = Set(mediaTypes.map(\.photoKitValue)).sorted()
            add(values.isEmpty ? "0" : "asset.mediaType IN (\(values.map(String.init).joined(separator: ", ")))", [])
        }
        if let burstIdentifier = query.burstIdentifier {
            add("asset.burstIdentifier = ?", [burstIdentifier])
        }
        if query.predicate != nil {
            throw .invalidPredicate(reason: "predicates are not supported by this version of photolibd")
        }
        if let sort = query.sort, !sort.isEmpty {
            for descriptor in sort {
                guard let column = Self.sortColumns[descriptor.key] else {
                    throw .invalidParameter("query.sort.\(descriptor.key)")
                }
                orderTerms.append((column, descriptor.ascending))
            }
            orderTerms.append(("asset.id", true))
        } else if ordersByAlbum {
            orderTerms = [("album_asset.position", true)]
        } else {
            orderTerms = [("asset.creationTime", true), ("asset.id", true)]
        }
        if let limit = query.limit {
            guard limit >= 0 else { throw .invalidParameter("query.limit") }
            self.limit = limit
        }
    }

    private mutating func addVisibilityFilters(_ query: AssetQuery) {
        if query.includeHidden != true { conditions.append("asset.isHidden = 0") }
        if query.includeTrashed != true { conditions.append("asset.trashedTime IS NULL") }
    }

    private mutating func add(_ condition: String, _ values: StatementArguments) {
        conditions.append(condition)
        arguments += values
    }

    private var whereClause: String {
        conditions.isEmpty ? "" : " WHERE " + conditions.map { "(\($0))" }.joined(separator: " AND ")
    }

    /// SQL counting the whole result (capped by the fetch limit).
    var countSQL: String {
        if let limit { return "SELECT count(*) FROM (SELECT 1 FROM \(from)\(whereClause) LIMIT \(limit))" }
        return "SELECT count(*) FROM \(from)\(whereClause)"
    }

    /// SQL selecting `columns` for the positions `[offset, offset + count)` of the result, in order.
    func pageSQL(columns: String, offset: Int, count: Int) -> String {
        let end = limit.map { Swift.min($0, offset + count) } ?? offset + count
        let rows = Swift.max(0, end - offset)
        return "SELECT \(columns) FROM \(from)\(whereClause) ORDER BY \(order.joined(separator: ", ")) LIMIT \(rows) OFFSET \(offset)"
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
