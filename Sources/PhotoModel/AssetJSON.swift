import CompactJSON

extension Asset: JSONWritable {
    /// Writes the asset as its `Codable` conformance does, but without `JSONEncoder`'s overhead.
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.string(id)
        json.key("mediaType"); json.string(mediaType.rawValue)
        json.key("mediaSubtypes"); json.array(mediaSubtypes.wireNames) { $0.string($1) }
        json.key("pixelWidth"); json.int(pixelWidth)
        json.key("pixelHeight"); json.int(pixelHeight)
        json.key("creationDate"); json.optional(creationDate) { $1.write(to: &$0) }
        json.key("creationDateSource"); json.optional(creationDateSource) { $0.string($1.rawValue) }
        json.key("modificationDate"); json.optional(modificationDate) { $1.write(to: &$0) }
        json.key("addedDate"); addedDate.write(to: &json)
        json.key("location"); json.optional(location) { $1.write(to: &$0) }
        json.key("place"); json.optional(place) { $1.write(to: &$0) }
        json.key("duration"); json.double(duration)
        json.key("isFavorite"); json.bool(isFavorite)
        json.key("isHidden"); json.bool(isHidden)
        json.key("isTrashed"); json.bool(isTrashed)
        json.key("burstIdentifier"); json.optional(burstIdentifier) { $0.string($1) }
        if let representsBurst { json.key("representsBurst"); json.bool(representsBurst) }
        json.key("originalFilename"); json.string(originalFilename)
        json.key("fileSize"); json.int(fileSize)
        json.key("orientation"); json.int(orientation)
        json.key("hasAdjustments"); json.bool(hasAdjustments)
        json.key("cameraMake"); json.optional(camera.make) { $0.string($1) }
        json.key("cameraModel"); json.optional(camera.model) { $0.string($1) }
        json.key("lensModel"); json.optional(camera.lensModel) { $0.string($1) }
        json.key("fNumber"); json.optional(camera.fNumber) { $0.double($1) }
        json.key("exposureTime"); json.optional(camera.exposureTime) { $0.double($1) }
        json.key("iso"); json.optional(camera.iso) { $0.int($1) }
        json.key("focalLength"); json.optional(camera.focalLength) { $0.double($1) }
        json.key("focalLength35mm"); json.optional(camera.focalLength35mm) { $0.int($1) }
        json.key("rating"); json.int(annotations.rating)
        json.key("keywords"); json.array(annotations.keywords) { $0.string($1) }
        json.key("title"); json.optional(annotations.title) { $0.string($1) }
        json.key("caption"); json.optional(annotations.caption) { $0.string($1) }
        if let resources { json.key("resources"); json.array(resources) { $1.write(to: &$0) } }
        if let sidecar {
            json.key("sidecar")
            json.beginObject()
            json.key("path"); json.string(sidecar.path)
            json.key("writeProblem"); json.optional(sidecar.writeProblem) { $0.string($1) }
            json.endObject()
        }
        json.endObject()
    }
}

extension Asset: JSONReadable {
    /// The members, in the order `write(to:)` writes them.
    private enum Key: String, CaseIterable, Sendable {
        case id, mediaType, mediaSubtypes, pixelWidth, pixelHeight, creationDate, creationDateSource, modificationDate
        case addedDate, location, place, duration, isFavorite, isHidden, isTrashed, burstIdentifier, representsBurst
        case originalFilename, fileSize
        case orientation, hasAdjustments, cameraMake, cameraModel, lensModel, fNumber, exposureTime, iso, focalLength
        case focalLength35mm, rating, keywords, title, caption, resources, sidecar
    }

    private static let keyOrder = JSONKeyOrder<Key>()

    /// Reads the asset as its `Decodable` conformance does, but without `JSONDecoder`'s overhead.
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var id: String?, mediaType: MediaType?, pixelWidth: Int?, pixelHeight: Int?, addedDate: Timestamp?
        var isFavorite: Bool?, isHidden: Bool?, isTrashed: Bool?, originalFilename: String?, fileSize: Int64?
        var mediaSubtypes: MediaSubtypes = [], creationDate: Timestamp?, creationDateSource: CreationDateSource?
        var modificationDate: Timestamp?, location: Location?, place: AssetPlace?, duration = 0.0, burstIdentifier: String?
        var orientation = 1, resources: [AssetResource]?, hasAdjustments = false, camera = CameraData()
        var annotations = Annotations(), sidecar: SidecarState?
        var representsBurst: Bool?
        try json.readObject(keys: Self.keyOrder) { key, json throws(JSONReadError) in
            switch key {
            case .id?: id = try json.readString()
            case .mediaType?: mediaType = try json.read(MediaType.self)
            case .mediaSubtypes?: mediaSubtypes = try json.readOptional(MediaSubtypes.init(reading:)) ?? []
            case .pixelWidth?: pixelWidth = try json.readInt()
            case .pixelHeight?: pixelHeight = try json.readInt()
            case .creationDate?: creationDate = try json.readOptional(Timestamp.init(reading:))
            case .creationDateSource?: creationDateSource = try json.readOptional { json throws(JSONReadError) in try json.read(CreationDateSource.self) }
            case .modificationDate?: modificationDate = try json.readOptional(Timestamp.init(reading:))
            case .addedDate?: addedDate = try Timestamp(reading: &json)
            case .location?: location = try json.readOptional(Location.init(reading:))
            case .place?: place = try json.readOptional(AssetPlace.init(reading:))
            case .duration?: duration = try json.readOptional { json throws(JSONReadError) in try json.readDouble() } ?? 0
            case .isFavorite?: isFavorite = try json.readBool()
            case .isHidden?: isHidden = try json.readBool()
            case .isTrashed?: isTrashed = try json.readBool()
            case .burstIdentifier?: burstIdentifier = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            case .representsBurst?: representsBurst = try json.readOptional { json throws(JSONReadError) in try json.readBool() }
            case .originalFilename?: originalFilename = try json.readString()
            case .fileSize?: fileSize = Int64(try json.readInt())
            case .orientation?: orientation = try json.readOptional { json throws(JSONReadError) in try json.readInt() } ?? 1
            case .resources?: resources = try json.readOptional { json throws(JSONReadError) in try json.readArray(of: AssetResource.self) }
            case .hasAdjustments?: hasAdjustments = try json.readOptional { json throws(JSONReadError) in try json.readBool() } ?? false
            case .cameraMake?: camera.make = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            case .cameraModel?: camera.model = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            case .lensModel?: camera.lensModel = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            case .fNumber?: camera.fNumber = try json.readOptional { json throws(JSONReadError) in try json.readDouble() }
            case .exposureTime?: camera.exposureTime = try json.readOptional { json throws(JSONReadError) in try json.readDouble() }
            case .iso?: camera.iso = try json.readOptional { json throws(JSONReadError) in try json.readInt() }
            case .focalLength?: camera.focalLength = try json.readOptional { json throws(JSONReadError) in try json.readDouble() }
            case .focalLength35mm?: camera.focalLength35mm = try json.readOptional { json throws(JSONReadError) in try json.readInt() }
            case .rating?: annotations.rating = try json.readOptional { json throws(JSONReadError) in try json.readInt() } ?? 0
            case .keywords?:
                annotations.keywords = try json.readOptional { json throws(JSONReadError) in
                    var keywords: [String] = []
                    try json.readArray { json throws(JSONReadError) in keywords.append(try json.readString()) }
                    return keywords
                } ?? []
            case .title?: annotations.title = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            case .caption?: annotations.caption = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            case .sidecar?: sidecar = try json.readOptional(SidecarState.init(reading:))
            case nil: try json.skipValue()
            }
        }
        guard let id, let mediaType, let pixelWidth, let pixelHeight, let addedDate, let isFavorite, let isHidden,
              let isTrashed, let originalFilename, let fileSize
        else { throw json.error("an asset lacks one of its required keys") }
        // Stored directly: delegating to the memberwise init copied the whole asset once more (a page read 7 % slower).
        self.id = id; self.mediaType = mediaType; self.mediaSubtypes = mediaSubtypes; self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight; self.creationDate = creationDate; self.creationDateSource = creationDateSource
        self.modificationDate = modificationDate; self.addedDate = addedDate; self.location = location
        self.place = place; self.duration = duration; self.isFavorite = isFavorite; self.isHidden = isHidden; self.isTrashed = isTrashed
        self.burstIdentifier = burstIdentifier; self.originalFilename = originalFilename; self.fileSize = fileSize
        self.orientation = orientation; self.resources = resources; self.camera = camera
        self.hasAdjustments = hasAdjustments
        self.annotations = annotations
        self.sidecar = sidecar
        self.representsBurst = representsBurst
    }
}

extension AssetResource: JSONWritable, JSONReadable {
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("type"); json.string(type.rawValue)
        json.key("originalFilename"); json.string(originalFilename)
        json.key("mimeType"); json.string(mimeType)
        json.key("fileSize"); json.int(fileSize)
        if let path { json.key("path"); json.string(path) }
        json.endObject()
    }

    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var type: ResourceType?, originalFilename: String?, mimeType: String?, fileSize: Int64?, path: String?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "type": type = try json.read(ResourceType.self)
            case "originalFilename": originalFilename = try json.readString()
            case "mimeType": mimeType = try json.readString()
            case "fileSize": fileSize = Int64(try json.readInt())
            case "path": path = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            default: try json.skipValue()
            }
        }
        guard let type, let originalFilename, let mimeType, let fileSize else {
            throw json.error("a resource lacks one of its required keys")
        }
        self.init(type: type, originalFilename: originalFilename, mimeType: mimeType, fileSize: fileSize, path: path)
    }
}

extension Location: JSONWritable, JSONReadable {
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("latitude"); json.double(latitude)
        json.key("longitude"); json.double(longitude)
        if let altitude { json.key("altitude"); json.double(altitude) }
        json.endObject()
    }

    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var latitude: Double?, longitude: Double?, altitude: Double?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "latitude": latitude = try json.readDouble()
            case "longitude": longitude = try json.readDouble()
            case "altitude": altitude = try json.readOptional { json throws(JSONReadError) in try json.readDouble() }
            default: try json.skipValue()
            }
        }
        guard let latitude, let longitude else { throw json.error("a location lacks its latitude or longitude") }
        self.init(latitude: latitude, longitude: longitude, altitude: altitude)
    }
}

extension MediaSubtypes: JSONReadable {
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var names: [String] = []
        try json.readArray { json throws(JSONReadError) in names.append(try json.readString()) }
        guard let set = MediaSubtypes(wireNames: names) else { throw json.error("unknown media subtype in \(names)") }
        self = set
    }
}

extension Timestamp: JSONReadable, JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.unescapedString(appendRFC3339(to:))
    }

    public init(reading json: inout JSONReader) throws(JSONReadError) {
        guard let parsed = try json.readString(parsing: Timestamp.parse(rfc3339:)) else { throw json.error("not an RFC 3339 date") }
        self = parsed
    }
}

extension SidecarState: JSONReadable {
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var path: String?, writeProblem: String?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "path": path = try json.readString()
            case "writeProblem": writeProblem = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            default: try json.skipValue()
            }
        }
        guard let path else { throw json.error("a sidecar lacks its path") }
        self.init(path: path, writeProblem: writeProblem)
    }
}
