/// A geographic position in WGS 84 degrees (altitude in metres).
public struct Location: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Whether the coordinates are on the globe.
    public var isValid: Bool {
        (-90...90).contains(latitude) && (-180...180).contains(longitude) && (altitude?.isFinite ?? true)
    }
}

/// The role a file plays for its asset.
public enum ResourceType: String, Sendable, Hashable, Codable, CaseIterable {
    case photo, video, audio, alternatePhoto, pairedVideo
}

/// One file of an asset.
public struct AssetResource: Sendable, Hashable, Codable {
    public var type: ResourceType
    public var originalFilename: String
    public var mimeType: String
    public var fileSize: Int64
    public var path: String?

    public init(type: ResourceType, originalFilename: String, mimeType: String, fileSize: Int64, path: String?) {
        self.type = type
        self.originalFilename = originalFilename
        self.mimeType = mimeType
        self.fileSize = fileSize
        self.path = path
    }
}

/// Where an asset's creation date came from, best first; `xmp` and `xmpWithoutOffset` are the embedded XMP's
/// xmp:CreateDate (or xmp:DateCreated, photoshop:DateCreated) of a file without EXIF DateTimeOriginal.
public enum CreationDateSource: String, Sendable, Hashable, Codable, CaseIterable {
    case exif, exifWithGPSOffset, exifWithoutOffset, xmp, xmpWithoutOffset, gps, mediaMetadata, fileName,
        fileModification, user
}

/// A photo, video or audio item of the library, in the contract's JSON shape.
public struct Asset: Sendable, Hashable {
    public var id: String
    public var mediaType: MediaType
    public var mediaSubtypes: MediaSubtypes
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var creationDate: Timestamp?
    public var creationDateSource: CreationDateSource?
    public var modificationDate: Timestamp?
    public var addedDate: Timestamp
    public var location: Location?
    /// The populated place nearest `location`; nil without a location, or with none within 25 km.
    public var place: AssetPlace?
    public var duration: Double
    public var isFavorite: Bool
    public var isHidden: Bool
    public var isTrashed: Bool
    public var burstIdentifier: String?
    /// For an asset of a burst, whether it is the one the library shows for the burst; nil outside bursts.
    public var representsBurst: Bool?
    public var originalFilename: String
    public var fileSize: Int64
    public var orientation: Int
    /// Present only when a fetch asked for resources.
    public var resources: [AssetResource]?
    /// Whether the asset has an edit: its images and size are then those of the edit.
    public var hasAdjustments = false
    /// What the camera recorded: make, model, lens and exposure.
    public var camera: CameraData
    /// Its stars, keywords, title and caption.
    public var annotations = Annotations()
    /// Its XMP sidecar; present only when a fetch asked for resources.
    public var sidecar: SidecarState?

    public init(
        id: String, mediaType: MediaType, mediaSubtypes: MediaSubtypes = [], pixelWidth: Int, pixelHeight: Int,
        creationDate: Timestamp?, creationDateSource: CreationDateSource? = nil, modificationDate: Timestamp?,
        addedDate: Timestamp, location: Location?, duration: Double = 0, isFavorite: Bool = false,
        isHidden: Bool = false, isTrashed: Bool = false, burstIdentifier: String? = nil,
        originalFilename: String, fileSize: Int64, orientation: Int = 1, resources: [AssetResource]? = nil,
        camera: CameraData = CameraData()
    ) {
        self.id = id
        self.mediaType = mediaType
        self.mediaSubtypes = mediaSubtypes
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.creationDate = creationDate
        self.creationDateSource = creationDateSource
        self.modificationDate = modificationDate
        self.addedDate = addedDate
        self.location = location
        self.duration = duration
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.isTrashed = isTrashed
        self.burstIdentifier = burstIdentifier
        self.originalFilename = originalFilename
        self.fileSize = fileSize
        self.orientation = orientation
        self.resources = resources
        self.camera = camera
    }
}

extension Asset: Codable {
    enum CodingKeys: String, CodingKey {
        case id, mediaType, mediaSubtypes, pixelWidth, pixelHeight, creationDate, creationDateSource
        case modificationDate, addedDate, location, place, duration, isFavorite, isHidden, isTrashed
        case burstIdentifier, representsBurst, originalFilename, fileSize, orientation, resources, hasAdjustments
        case cameraMake, cameraModel, lensModel, fNumber, exposureTime, iso, focalLength, focalLength35mm
        case rating, keywords, title, caption, sidecar
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            mediaType: try container.decode(MediaType.self, forKey: .mediaType),
            mediaSubtypes: try container.decodeIfPresent(MediaSubtypes.self, forKey: .mediaSubtypes) ?? [],
            pixelWidth: try container.decode(Int.self, forKey: .pixelWidth),
            pixelHeight: try container.decode(Int.self, forKey: .pixelHeight),
            creationDate: try container.decodeIfPresent(Timestamp.self, forKey: .creationDate),
            creationDateSource: try container.decodeIfPresent(CreationDateSource.self, forKey: .creationDateSource),
            modificationDate: try container.decodeIfPresent(Timestamp.self, forKey: .modificationDate),
            addedDate: try container.decode(Timestamp.self, forKey: .addedDate),
            location: try container.decodeIfPresent(Location.self, forKey: .location),
            duration: try container.decodeIfPresent(Double.self, forKey: .duration) ?? 0,
            isFavorite: try container.decode(Bool.self, forKey: .isFavorite),
            isHidden: try container.decode(Bool.self, forKey: .isHidden),
            isTrashed: try container.decode(Bool.self, forKey: .isTrashed),
            burstIdentifier: try container.decodeIfPresent(String.self, forKey: .burstIdentifier),
            originalFilename: try container.decode(String.self, forKey: .originalFilename),
            fileSize: try container.decode(Int64.self, forKey: .fileSize),
            orientation: try container.decodeIfPresent(Int.self, forKey: .orientation) ?? 1,
            resources: try container.decodeIfPresent([AssetResource].self, forKey: .resources)
        )
        place = try container.decodeIfPresent(AssetPlace.self, forKey: .place)
        hasAdjustments = try container.decodeIfPresent(Bool.self, forKey: .hasAdjustments) ?? false
        representsBurst = try container.decodeIfPresent(Bool.self, forKey: .representsBurst)
        camera = CameraData(
            make: try container.decodeIfPresent(String.self, forKey: .cameraMake),
            model: try container.decodeIfPresent(String.self, forKey: .cameraModel),
            lensModel: try container.decodeIfPresent(String.self, forKey: .lensModel),
            fNumber: try container.decodeIfPresent(Double.self, forKey: .fNumber),
            exposureTime: try container.decodeIfPresent(Double.self, forKey: .exposureTime),
            iso: try container.decodeIfPresent(Int.self, forKey: .iso),
            focalLength: try container.decodeIfPresent(Double.self, forKey: .focalLength),
            focalLength35mm: try container.decodeIfPresent(Int.self, forKey: .focalLength35mm))
        annotations = Annotations(
            rating: try container.decodeIfPresent(Int.self, forKey: .rating) ?? 0,
            keywords: try container.decodeIfPresent([String].self, forKey: .keywords) ?? [],
            title: try container.decodeIfPresent(String.self, forKey: .title),
            caption: try container.decodeIfPresent(String.self, forKey: .caption))
        sidecar = try container.decodeIfPresent(SidecarState.self, forKey: .sidecar)
    }

    /// Writes every pinned field, with explicit nulls, so clients see the full shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(mediaType, forKey: .mediaType)
        try container.encode(mediaSubtypes, forKey: .mediaSubtypes)
        try container.encode(pixelWidth, forKey: .pixelWidth)
        try container.encode(pixelHeight, forKey: .pixelHeight)
        try container.encode(creationDate, forKey: .creationDate)
        try container.encode(creationDateSource, forKey: .creationDateSource)
        try container.encode(modificationDate, forKey: .modificationDate)
        try container.encode(addedDate, forKey: .addedDate)
        try container.encode(location, forKey: .location)
        try container.encode(place, forKey: .place)
        try container.encode(duration, forKey: .duration)
        try container.encode(isFavorite, forKey: .isFavorite)
        try container.encode(isHidden, forKey: .isHidden)
        try container.encode(isTrashed, forKey: .isTrashed)
        try container.encode(burstIdentifier, forKey: .burstIdentifier)
        try container.encodeIfPresent(representsBurst, forKey: .representsBurst)
        try container.encode(originalFilename, forKey: .originalFilename)
        try container.encode(fileSize, forKey: .fileSize)
        try container.encode(orientation, forKey: .orientation)
        try container.encode(hasAdjustments, forKey: .hasAdjustments)
        try container.encode(camera.make, forKey: .cameraMake)
        try container.encode(camera.model, forKey: .cameraModel)
        try container.encode(camera.lensModel, forKey: .lensModel)
        try container.encode(camera.fNumber, forKey: .fNumber)
        try container.encode(camera.exposureTime, forKey: .exposureTime)
        try container.encode(camera.iso, forKey: .iso)
        try container.encode(camera.focalLength, forKey: .focalLength)
        try container.encode(camera.focalLength35mm, forKey: .focalLength35mm)
        try container.encode(annotations.rating, forKey: .rating)
        try container.encode(annotations.keywords, forKey: .keywords)
        try container.encode(annotations.title, forKey: .title)
        try container.encode(annotations.caption, forKey: .caption)
        try container.encodeIfPresent(resources, forKey: .resources)
        try container.encodeIfPresent(sidecar, forKey: .sidecar)
    }
}

/// Everything the store needs to insert a new asset; the store assigns its id and added date.
public struct AssetDraft: Sendable, Hashable {
    public var mediaType: MediaType
    public var mediaSubtypes: MediaSubtypes
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var orientation: Int
    public var creationDate: Timestamp?
    public var creationDateSource: CreationDateSource?
    public var location: Location?
    public var duration: Double
    /// SHA-256 of the primary resource, lowercase hex: duplicates share it.
    public var contentHash: String
    /// The primary resource first.
    public var resources: [DraftResource]
    /// The burst the photo was taken in, shared by its frames.
    public var burstIdentifier: String?
    /// What the camera recorded.
    public var camera = CameraData()
    /// The stars, keywords, title and caption the file and its sidecar carry.
    public var annotations = Annotations()

    public init(
        mediaType: MediaType, mediaSubtypes: MediaSubtypes = [], pixelWidth: Int, pixelHeight: Int,
        orientation: Int, creationDate: Timestamp?, creationDateSource: CreationDateSource?,
        location: Location?, duration: Double = 0, contentHash: String, resources: [DraftResource],
        burstIdentifier: String? = nil
    ) {
        self.mediaType = mediaType
        self.mediaSubtypes = mediaSubtypes
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.creationDate = creationDate
        self.creationDateSource = creationDateSource
        self.location = location
        self.duration = duration
        self.contentHash = contentHash
        self.resources = resources
        self.burstIdentifier = burstIdentifier
    }
}

/// A file about to become a resource.
public struct DraftResource: Sendable, Hashable {
    public var type: ResourceType
    public var originalFilename: String
    public var mimeType: String
    public var fileSize: Int64
    /// Where the file lives now (in the library's store, or in place for reference imports).
    public var path: String
    /// Whether the library owns the file (copied or moved into its store) and may delete it on purge.
    public var isOwnedByLibrary: Bool

    public init(
        type: ResourceType, originalFilename: String, mimeType: String, fileSize: Int64, path: String,
        isOwnedByLibrary: Bool
    ) {
        self.type = type
        self.originalFilename = originalFilename
        self.mimeType = mimeType
        self.fileSize = fileSize
        self.path = path
        self.isOwnedByLibrary = isOwnedByLibrary
    }
}
