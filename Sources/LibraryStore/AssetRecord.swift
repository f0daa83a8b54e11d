import GRDB
import PhotoModel

/// An `asset` row as clients read it: GRDB's record type for the table the library reads most, its columns read at
/// their positions (pages of 500 rows, enumerations of a million).
struct AssetRecord: FetchableRecord {
    /// The columns read, in the order selected.
    enum Column: Int, PositionedColumn {
        case id, mediaType, mediaSubtypes, pixelWidth, pixelHeight, orientation, creationTime, creationOffset
        case creationDateSource, modificationTime, addedTime, latitude, longitude, altitude, duration, isFavorite
        case isHidden, trashedTime, burstIdentifier, originalFilename, fileSize, hasAdjustments
        case cameraMake, cameraModel, lensModel, fNumber, exposureTime, iso, focalLength, focalLength35mm
        case rating, title, caption
        /// Whether the asset stands for its burst (computed: a burst's other photos collapse into it).
        case representsBurst
        case placeId, city, region, country, countryCode

        var expression: String {
            switch self {
            case .representsBurst: "asset.collapsesIntoBurst = 0 AS representsBurst"
            case .city, .region, .country, .countryCode: "(SELECT \(self) FROM place WHERE place.id = asset.placeId)"
            default: "asset.\(self)"
            }
        }
    }

    /// The columns for a SELECT, in ``Column``'s order.
    static let selection = Column.selection

    let asset: Asset

    init(row: Row) {
        let creationTime: Double? = row[Column.creationTime]
        let latitude: Double? = row[Column.latitude]
        let longitude: Double? = row[Column.longitude]
        let modificationTime: Double? = row[Column.modificationTime]
        let trashedTime: Double? = row[Column.trashedTime]
        var asset = Asset(
            id: row[Column.id],
            mediaType: MediaType(photoKitValue: row[Column.mediaType]) ?? .unknown,
            mediaSubtypes: MediaSubtypes(rawValue: row[Column.mediaSubtypes]),
            pixelWidth: row[Column.pixelWidth],
            pixelHeight: row[Column.pixelHeight],
            creationDate: creationTime.map { Timestamp(secondsSince1970: $0, utcOffsetSeconds: row[Column.creationOffset] ?? 0) },
            creationDateSource: (row[Column.creationDateSource] as String?).flatMap(CreationDateSource.init(rawValue:)),
            modificationDate: modificationTime.map { Timestamp(secondsSince1970: $0) },
            addedDate: Timestamp(secondsSince1970: row[Column.addedTime]),
            location: latitude.flatMap { latitude in
                longitude.map { Location(latitude: latitude, longitude: $0, altitude: row[Column.altitude]) }
            },
            duration: row[Column.duration],
            isFavorite: row[Column.isFavorite],
            isHidden: row[Column.isHidden],
            isTrashed: trashedTime != nil,
            burstIdentifier: row[Column.burstIdentifier],
            originalFilename: row[Column.originalFilename],
            fileSize: row[Column.fileSize],
            orientation: row[Column.orientation]
        )
        asset.hasAdjustments = row[Column.hasAdjustments]
        asset.camera = CameraData(
            make: row[Column.cameraMake], model: row[Column.cameraModel], lensModel: row[Column.lensModel],
            fNumber: row[Column.fNumber], exposureTime: row[Column.exposureTime], iso: row[Column.iso],
            focalLength: row[Column.focalLength], focalLength35mm: row[Column.focalLength35mm])
        asset.annotations = Annotations(rating: row[Column.rating], title: row[Column.title], caption: row[Column.caption])
        if asset.burstIdentifier != nil { asset.representsBurst = row[Column.representsBurst] }
        if let placeId: String = row[Column.placeId] {
            asset.place = AssetPlace(
                id: placeId, city: row[Column.city], region: row[Column.region], country: row[Column.country],
                countryCode: row[Column.countryCode])
        }
        self.asset = asset
    }
}

/// An asset's file as clients read it, from the `resource` table.
struct ResourceRecord: FetchableRecord {
    let assetId: String
    let resource: AssetResource?

    init(row: Row) {
        assetId = row["assetId"]
        resource = ResourceType(rawValue: row["type"]).map { type in
            AssetResource(type: type, originalFilename: row["originalFilename"], mimeType: row["mimeType"],
                          fileSize: row["fileSize"], path: row["path"])
        }
    }

    /// The resources of the given assets, primary first, keyed by asset id.
    static func resources(of assetIds: [String], in db: Database) throws -> [String: [AssetResource]] {
        var result: [String: [AssetResource]] = [:]
        for chunk in assetIds.chunked(into: 500) {
            let records = try ResourceRecord.fetchCursor(db, sql: """
                SELECT assetId, type, originalFilename, mimeType, fileSize, path FROM resource
                WHERE assetId IN (\(databaseQuestionMarks(count: chunk.count)))
                """, arguments: StatementArguments(chunk))
            while let record = try records.next() {
                if let resource = record.resource { result[record.assetId, default: []].append(resource) }
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
