import CompactJSON
import PhotoModel

/// `Library.FetchAssets`: one page of the assets `query` selects (all when nil).
public struct FetchAssetsParameters: Sendable, Hashable, Codable {
    public var query: AssetQuery?
    public var offset: Int?
    public var pageSize: Int?
    public var includeResources: Bool?

    public init(query: AssetQuery? = nil, offset: Int? = nil, pageSize: Int? = nil, includeResources: Bool? = nil) {
        self.query = query
        self.offset = offset
        self.pageSize = pageSize
        self.includeResources = includeResources
    }
}

extension FetchAssetsParameters: JSONWritable {
    /// Writes what the `Encodable` conformance writes; a page of ids is written without `JSONEncoder`.
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        if let query { json.key("query"); query.write(to: &json) }
        if let offset { json.key("offset"); json.int(offset) }
        if let pageSize { json.key("pageSize"); json.int(pageSize) }
        if let includeResources { json.key("includeResources"); json.bool(includeResources) }
        json.endObject()
    }
}

extension FetchAssetsParameters: JSONReadable {
    /// Reads what the `Decodable` conformance reads; the daemon reads a page of ids without `JSONDecoder`.
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        self.init()
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "query": query = try json.readOptional(AssetQuery.init(reading:))
            case "offset": offset = try json.readOptional { json throws(JSONReadError) in try json.readInt() }
            case "pageSize": pageSize = try json.readOptional { json throws(JSONReadError) in try json.readInt() }
            case "includeResources":
                includeResources = try json.readOptional { json throws(JSONReadError) in try json.readBool() }
            default: try json.skipValue()
            }
        }
    }
}

/// `Library.FetchCollections`.
public struct FetchCollectionsParameters: Sendable, Hashable, Codable {
    public var query: CollectionQuery?
    public var offset: Int?
    public var pageSize: Int?

    public init(query: CollectionQuery? = nil, offset: Int? = nil, pageSize: Int? = nil) {
        self.query = query
        self.offset = offset
        self.pageSize = pageSize
    }
}

/// `Library.PerformChanges`: the changes commit together or not at all.
public struct PerformChangesParameters: Sendable, Hashable, Codable {
    public var changes: [ChangeRequest]

    public init(changes: [ChangeRequest]) {
        self.changes = changes
    }
}

/// `Library.Observe`: the named queries whose changes the stream reports.
public struct ObserveParameters: Sendable, Hashable, Codable {
    public var assetQueries: [String: AssetQuery]?
    public var collectionQueries: [String: CollectionQuery]?
    public var onlyRelevant: Bool?

    public init(
        assetQueries: [String: AssetQuery]? = nil, collectionQueries: [String: CollectionQuery]? = nil,
        onlyRelevant: Bool? = nil
    ) {
        self.assetQueries = assetQueries
        self.collectionQueries = collectionQueries
        self.onlyRelevant = onlyRelevant
    }
}

/// `Library.UpdateObservation`: adds queries to the running `Observe` stream `observerId` and drops others
/// (dropped first, so a name may be reused in one call).
public struct UpdateObservationParameters: Sendable, Hashable, Codable {
    public var observerId: String
    public var assetQueries: [String: AssetQuery]?
    public var collectionQueries: [String: CollectionQuery]?
    public var removeQueries: [String]?
    /// True: each added result whose ids are all UUIDs sends them as `packedIds` (`PackedIDs`) instead of `ids`.
    public var packedIds: Bool?

    public init(
        observerId: String, assetQueries: [String: AssetQuery]? = nil,
        collectionQueries: [String: CollectionQuery]? = nil, removeQueries: [String]? = nil, packedIds: Bool? = nil
    ) {
        self.observerId = observerId
        self.assetQueries = assetQueries
        self.collectionQueries = collectionQueries
        self.removeQueries = removeQueries
        self.packedIds = packedIds
    }
}

/// `Library.FetchPersistentChanges`.
public struct FetchPersistentChangesParameters: Sendable, Hashable, Codable {
    public var since: String
    public var limit: Int?

    public init(since: String, limit: Int? = nil) {
        self.since = since
        self.limit = limit
    }
}

/// What the daemon lets a user do, PhotoKit's `PHAuthorizationStatus`.
public enum AuthorizationStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Read and write.
    case authorized
    /// Read only.
    case restricted
    case denied
    case notDetermined

    /// Whether fetches return the library's contents.
    public var canRead: Bool { self == .authorized || self == .restricted }
}

/// PhotoKit's `PHAccessLevel`: what a program asks to do with the library.
public enum AccessLevel: String, Sendable, Hashable, Codable, CaseIterable {
    /// Add photos and videos without reading the library.
    case addOnly
    case readWrite
}

/// `Library.AuthorizationStatus`: the read-write level when none is given.
public struct AuthorizationStatusParameters: Sendable, Hashable, Codable {
    public var accessLevel: AccessLevel?

    public init(accessLevel: AccessLevel? = nil) {
        self.accessLevel = accessLevel
    }
}

/// The reply of `Library.AuthorizationStatus`.
public struct AuthorizationStatusReply: Sendable, Hashable, Codable {
    public var status: AuthorizationStatus

    public init(status: AuthorizationStatus) {
        self.status = status
    }
}

/// Parameters of a method that takes none.
public struct NoParameters: Sendable, Hashable, Codable {
    public init() {}
}

/// The reply of a method that returns nothing.
public struct EmptyReply: Sendable, Hashable, Codable {
    public init() {}
}

/// `Library.FetchAssetMetadata`.
public struct FetchAssetMetadataParameters: Sendable, Hashable, Codable {
    public var id: String

    public init(id: String) {
        self.id = id
    }
}

/// The reply of `Library.FetchAssetMetadata`.
public struct FetchAssetMetadataReply: Sendable, Hashable, Codable {
    public var metadata: AssetMetadata

    public init(metadata: AssetMetadata) {
        self.metadata = metadata
    }
}

/// `Library.FetchPlaces`.
public struct FetchPlacesParameters: Sendable, Hashable, Codable {
    public var query: AssetQuery?

    public init(query: AssetQuery? = nil) {
        self.query = query
    }
}

/// The reply of `Library.FetchPlaces`.
public struct FetchPlacesReply: Sendable, Hashable, Codable {
    public var places: [PlaceSummary]

    public init(places: [PlaceSummary]) {
        self.places = places
    }
}

/// `Library.FetchDuplicates`.
public struct FetchDuplicatesParameters: Sendable, Hashable, Codable {
    public var query: AssetQuery?

    public init(query: AssetQuery? = nil) {
        self.query = query
    }
}

/// The reply of `Library.FetchDuplicates`: groups of asset ids, each best first.
public struct FetchDuplicatesReply: Sendable, Hashable, Codable {
    public var groups: [[String]]

    public init(groups: [[String]]) {
        self.groups = groups
    }
}
