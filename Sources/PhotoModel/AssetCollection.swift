/// What a collection is.
public enum CollectionKind: String, Sendable, Hashable, Codable, CaseIterable {
    case album, smartAlbum, moment, folder
}

/// PhotoKit's collection subtypes, named as on the wire.
public enum CollectionSubtype: String, Sendable, Hashable, Codable, CaseIterable {
    case albumRegular
    case smartAlbumUserLibrary, smartAlbumFavorites, smartAlbumVideos, smartAlbumRecentlyAdded
    case smartAlbumAllHidden, smartAlbumPanoramas, smartAlbumScreenshots, smartAlbumLivePhotos
    case smartAlbumBursts, smartAlbumRecentlyDeleted, smartAlbumRAW
    case smartAlbumSelfPortraits, smartAlbumSlomoVideos, smartAlbumTimelapses, smartAlbumAnimated, smartAlbumDepthEffect
    case smartAlbumLongExposures
    case smartAlbumDuplicates
    case moment
    case folderRegular

    /// The kind every collection of this subtype has.
    public var kind: CollectionKind {
        switch self {
        case .albumRegular: .album
        case .moment: .moment
        case .folderRegular: .folder
        default: .smartAlbum
        }
    }

    /// Smart album subtypes, in the order the library lists them.
    public static let smartAlbums: [CollectionSubtype] = allCases.filter { $0.kind == .smartAlbum }

    /// The title a smart album is created with.
    public var defaultTitle: String {
        switch self {
        case .smartAlbumUserLibrary: "Library"
        case .smartAlbumFavorites: "Favorites"
        case .smartAlbumVideos: "Videos"
        case .smartAlbumRecentlyAdded: "Recently Added"
        case .smartAlbumAllHidden: "Hidden"
        case .smartAlbumPanoramas: "Panoramas"
        case .smartAlbumScreenshots: "Screenshots"
        case .smartAlbumLivePhotos: "Live Photos"
        case .smartAlbumBursts: "Bursts"
        case .smartAlbumRecentlyDeleted: "Recently Deleted"
        case .smartAlbumRAW: "RAW"
        case .smartAlbumSelfPortraits: "Selfies"
        case .smartAlbumSlomoVideos: "Slo-mo"
        case .smartAlbumTimelapses: "Time-lapse"
        case .smartAlbumAnimated: "Animated"
        case .smartAlbumDepthEffect: "Portrait"
        case .smartAlbumLongExposures: "Long Exposure"
        case .smartAlbumDuplicates: "Duplicates"
        case .albumRegular: "Album"
        case .moment: "Moment"
        case .folderRegular: "Folder"
        }
    }
}

/// An album, smart album, moment or folder, in the contract's JSON shape.
public struct AssetCollection: Sendable, Hashable {
    public var id: String
    public var kind: CollectionKind
    public var subtype: CollectionSubtype
    public var title: String
    /// Exact for every kind; nil for folders.
    public var assetCount: Int?
    public var startDate: Timestamp?
    public var endDate: Timestamp?
    public var parentId: String?
    /// A moment's places: its assets' distinct cities, the most photographed first, at most three; empty for other
    /// kinds and without places.
    public var locationNames: [String] = []

    public init(
        id: String, kind: CollectionKind, subtype: CollectionSubtype, title: String, assetCount: Int?,
        startDate: Timestamp?, endDate: Timestamp?, parentId: String?
    ) {
        self.id = id
        self.kind = kind
        self.subtype = subtype
        self.title = title
        self.assetCount = assetCount
        self.startDate = startDate
        self.endDate = endDate
        self.parentId = parentId
    }
}

extension AssetCollection: Codable {
    enum CodingKeys: String, CodingKey {
        case id, kind, subtype, title, assetCount, startDate, endDate, parentId, locationNames
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            kind: try container.decode(CollectionKind.self, forKey: .kind),
            subtype: try container.decode(CollectionSubtype.self, forKey: .subtype),
            title: try container.decode(String.self, forKey: .title),
            assetCount: try container.decodeIfPresent(Int.self, forKey: .assetCount),
            startDate: try container.decodeIfPresent(Timestamp.self, forKey: .startDate),
            endDate: try container.decodeIfPresent(Timestamp.self, forKey: .endDate),
            parentId: try container.decodeIfPresent(String.self, forKey: .parentId))
        locationNames = try container.decodeIfPresent([String].self, forKey: .locationNames) ?? []
    }

    /// Writes every pinned field, with explicit nulls.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(subtype, forKey: .subtype)
        try container.encode(title, forKey: .title)
        try container.encode(assetCount, forKey: .assetCount)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(endDate, forKey: .endDate)
        try container.encode(parentId, forKey: .parentId)
        if kind == .moment { try container.encode(locationNames, forKey: .locationNames) }
    }
}
