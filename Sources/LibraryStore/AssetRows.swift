import GRDB
import PhotoModel

/// Maps `asset` and `resource` rows to model values.
enum AssetRows {
    /// The columns `asset(from:)` reads, in order.
    static let selection = """
        asset.id, asset.mediaType, asset.mediaSubtypes, asset.pixelWidth, asset.pixelHeight, asset.orientation,
        asset.creationTime, asset.creationOffset, asset.creationDateSource, asset.modificationTime, asset.addedTime,
        asset.latitude, asset.longitude, asset.altitude, asset.duration, asset.isFavorite, asset.isHidden,
        asset.trashedTime, asset.burstIdentifier, asset.originalFilename, asset.fileSize, asset.hasAdjustments,
        """ + CameraColumns.selection + ", " + AnnotationColumns.selection + ", asset.collapsesIntoBurst = 0 AS representsBurst"

    static func asset(from row: Row) -> Asset {
        var asset = assetWithoutCamera(from: row)
        asset.hasAdjustments = row[21]
        asset.camera = CameraColumns.camera(from: row, startingAt: 22)
        asset.annotations = AnnotationColumns.annotations(from: row, startingAt: 22 + CameraColumns.names.count)
        if asset.burstIdentifier != nil { asset.representsBurst = row["representsBurst"] }
        return asset
    }

    private static func assetWithoutCamera(from row: Row) -> Asset {
        let creationTime: Double? = row[6]
        let latitude: Double? = row[11]
        let longitude: Double? = row[12]
        let modificationTime: Double? = row[9]
        let trashedTime: Double? = row[17]
        return Asset(
            id: row[0],
            mediaType: MediaType(photoKitValue: row[1]) ?? .unknown,
            mediaSubtypes: MediaSubtypes(rawValue: row[2]),
            pixelWidth: row[3],
            pixelHeight: row[4],
            creationDate: creationTime.map { Timestamp(secondsSince1970: $0, utcOffsetSeconds: row[7] ?? 0) },
            creationDateSource: (row[8] as String?).flatMap(CreationDateSource.init(rawValue:)),
            modificationDate: modificationTime.map { Timestamp(secondsSince1970: $0) },
            addedDate: Timestamp(secondsSince1970: row[10]),
            location: latitude.flatMap { latitude in
                longitude.map { Location(latitude: latitude, longitude: $0, altitude: row[13]) }
            },
            duration: row[14],
            isFavorite: row[15],
            isHidden: row[16],
            isTrashed: trashedTime != nil,
            burstIdentifier: row[18],
            originalFilename: row[19],
            fileSize: row[20],
            orientation: row[5]
        )
    }

    /// The resources of the given assets, primary first, keyed by asset id.
    static func resources(of assetIds: [String], in db: Database) throws -> [String: [AssetResource]] {
        var result: [String: [AssetResource]] = [:]
        for chunk in assetIds.chunked(into: 500) {
            let rows = try Row.fetchAll(db, sql: """
                SELECT assetId, type, originalFilename, mimeType, fileSize, path FROM resource
                WHERE assetId IN (\(databaseQuestionMarks(count: chunk.count)))
                """, arguments: StatementArguments(chunk))
            for row in rows {
                guard let type = ResourceType(rawValue: row[1]) else { continue }
                result[row[0], default: []].append(
                    AssetResource(type: type, originalFilename: row[2], mimeType: row[3], fileSize: row[4], path: row[5]))
            }
        }
        let order = Dictionary(uniqueKeysWithValues: ResourceType.allCases.enumerated().map { ($1, $0) })
        return result.mapValues { $0.sorted { order[$0.type, default: 0] < order[$1.type, default: 0] } }
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
