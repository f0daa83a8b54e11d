import CompactJSON

/// One sort key and direction, as in `NSSortDescriptor`.
public struct SortDescriptor: Sendable, Hashable, Codable {
    public var key: String
    public var ascending: Bool

    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    enum CodingKeys: String, CodingKey { case key, ascending }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        ascending = try container.decodeIfPresent(Bool.self, forKey: .ascending) ?? true
    }
}

/// What `FetchAssets` and `Observe` select: PHFetchOptions plus the fetch method's scope. All fields optional.
public struct AssetQuery: Sendable, Hashable, Codable {
    public var collection: String?
    public var ids: [String]?
    public var mediaTypes: [MediaType]?
    public var burstIdentifier: String?
    public var predicate: String?
    public var sort: [SortDescriptor]?
    public var includeHidden: Bool?
    public var includeTrashed: Bool?
    public var includeAllBurstAssets: Bool?
    public var limit: Int?

    public init(collection: String? = nil, ids: [String]? = nil, mediaTypes: [MediaType]? = nil,
                burstIdentifier: String? = nil, predicate: String? = nil, sort: [SortDescriptor]? = nil,
                includeHidden: Bool? = nil, includeTrashed: Bool? = nil, includeAllBurstAssets: Bool? = nil,
                limit: Int? = nil) {
        self.collection = collection
        self.ids = ids
        self.mediaTypes = mediaTypes
        self.burstIdentifier = burstIdentifier
        self.predicate = predicate
        self.sort = sort
        self.includeHidden = includeHidden
        self.includeTrashed = includeTrashed
        self.includeAllBurstAssets = includeAllBurstAssets
        self.limit = limit
    }
}

/// What `FetchCollections` selects. All fields optional.
public struct CollectionQuery: Sendable, Hashable, Codable {
    public var kind: CollectionKind?
    public var subtype: CollectionSubtype?
    public var ids: [String]?
    public var parent: String?
    public var topLevelUserCollections: Bool?
    public var containingAsset: String?
    public var predicate: String?
    public var sort: [SortDescriptor]?
    public var limit: Int?

    public init(kind: CollectionKind? = nil, subtype: CollectionSubtype? = nil, ids: [String]? = nil,
                parent: String? = nil, topLevelUserCollections: Bool? = nil, containingAsset: String? = nil,
                predicate: String? = nil, sort: [SortDescriptor]? = nil, limit: Int? = nil) {
        self.kind = kind
        self.subtype = subtype
        self.ids = ids
        self.parent = parent
        self.topLevelUserCollections = topLevelUserCollections
        self.containingAsset = containingAsset
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
    }
}

extension AssetQuery: JSONWritable {
    /// Writes what the `Encodable` conformance writes (absent fields omitted), without `JSONEncoder`'s cost per id.
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        if let collection { json.key("collection"); json.string(collection) }
        if let ids { json.key("ids"); json.array(ids) { $0.string($1) } }
        if let mediaTypes { json.key("mediaTypes"); json.array(mediaTypes) { $0.string($1.rawValue) } }
        if let burstIdentifier { json.key("burstIdentifier"); json.string(burstIdentifier) }
        if let predicate { json.key("predicate"); json.string(predicate) }
        if let sort {
            json.key("sort")
            json.array(sort) { json, descriptor in
                json.beginObject()
                json.key("key"); json.string(descriptor.key)
                json.key("ascending"); json.bool(descriptor.ascending)
                json.endObject()
            }
        }
        for (key, flag) in [("includeHidden", includeHidden), ("includeTrashed", includeTrashed),
                            ("includeAllBurstAssets", includeAllBurstAssets)] {
            if let flag { json.key(key); json.bool(flag) }
        }
        if let limit { json.key("limit"); json.int(limit) }
        json.endObject()
    }
}
