/// The kind of media an asset holds, named as on the wire.
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    case unknown, image, video, audio

    /// PhotoKit's `PHAssetMediaType` raw value (0 unknown, 1 image, 2 video, 3 audio).
    public var photoKitValue: Int {
        switch self {
        case .unknown: 0
        case .image: 1
        case .video: 2
        case .audio: 3
        }
    }

    public init?(photoKitValue: Int) {
        guard let match = Self.allCases.first(where: { $0.photoKitValue == photoKitValue }) else { return nil }
        self = match
    }
}

/// PhotoKit's media subtypes, kept as a bit set so the store can filter on them in SQL.
public struct MediaSubtypes: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let photoPanorama = MediaSubtypes(rawValue: 1 << 0)
    public static let photoHDR = MediaSubtypes(rawValue: 1 << 1)
    public static let photoScreenshot = MediaSubtypes(rawValue: 1 << 2)
    public static let photoLive = MediaSubtypes(rawValue: 1 << 3)
    public static let photoDepthEffect = MediaSubtypes(rawValue: 1 << 4)
    /// The library's own, not PhotoKit's: an image of more than one frame (GIF, WebP, APNG).
    public static let photoAnimated = MediaSubtypes(rawValue: 1 << 6)
    /// The library's own, not PhotoKit's: taken with the front camera, as the lens the camera recorded says.
    public static let photoSelfPortrait = MediaSubtypes(rawValue: 1 << 7)
    /// The subtypes the library keeps beside PhotoKit's.
    public static let libraryOwn: MediaSubtypes = [.photoAnimated, .photoSelfPortrait]
    public static let videoStreamed = MediaSubtypes(rawValue: 1 << 16)
    public static let videoHighFrameRate = MediaSubtypes(rawValue: 1 << 17)
    public static let videoTimelapse = MediaSubtypes(rawValue: 1 << 18)

    /// Wire names in a fixed order.
    public static let names: [(name: String, subtype: MediaSubtypes)] = [
        ("photoPanorama", .photoPanorama), ("photoHDR", .photoHDR), ("photoScreenshot", .photoScreenshot),
        ("photoLive", .photoLive), ("photoDepthEffect", .photoDepthEffect), ("photoAnimated", .photoAnimated),
        ("photoSelfPortrait", .photoSelfPortrait),
        ("videoStreamed", .videoStreamed),
        ("videoHighFrameRate", .videoHighFrameRate), ("videoTimelapse", .videoTimelapse),
    ]

    /// The wire names of the subtypes in this set.
    public var wireNames: [String] { Self.names.filter { contains($0.subtype) }.map(\.name) }

    /// Parses wire names; nil when one is unknown.
    public init?(wireNames: [String]) {
        var set: MediaSubtypes = []
        for name in wireNames {
            guard let entry = Self.names.first(where: { $0.name == name }) else { return nil }
            set.insert(entry.subtype)
        }
        self = set
    }
}

extension MediaSubtypes: Codable {
    public init(from decoder: any Decoder) throws {
        let names = try [String](from: decoder)
        guard let set = MediaSubtypes(wireNames: names) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown media subtype"))
        }
        self = set
    }

    public func encode(to encoder: any Encoder) throws {
        try wireNames.encode(to: encoder)
    }
}
