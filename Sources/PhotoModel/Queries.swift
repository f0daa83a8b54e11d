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
        let flags: [(StaticString, Bool?)] = [("includeHidden", includeHidden), ("includeTrashed", includeTrashed),
                                              ("includeAllBurstAssets", includeAllBurstAssets)]
        for (key, flag) in flags {
            if let flag { json.key(key); json.bool(flag) }
        }
        if let limit { json.key("limit"); json.int(limit) }
        json.endObject()
    }
}

extension SortDescriptor: JSONReadable {
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var key: String?, ascending: Bool?
        try json.readObject { name, json throws(JSONReadError) in
            switch name {
            case "key": key = try json.readString()
            case "ascending": ascending = try json.readOptional { json throws(JSONReadError) in try json.readBool() }
            default: try json.skipValue()
            }
        }
        guard let key else { throw json.error("a sort descriptor lacks its key") }
        self.init(key: key, ascending: ascending ?? true)
    }
}

extension AssetQuery: JSONReadable {
    /// Reads what the `Decodable` conformance reads (null is absent), without `JSONDecoder`'s cost per id.
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        self.init()
        try json.readObject { key, json throws(JSONReadError) in
            func optional<Value>(_ read: (inout JSONReader) throws(JSONReadError) -> Value) throws(JSONReadError) -> Value? {
                try json.readOptional(read)
            }
            switch key {
            case "collection": collection = try optional { json throws(JSONReadError) in try json.readString() }
            case "ids": ids = try optional { json throws(JSONReadError) in try json.readArray(of: { json throws(JSONReadError) in try json.readString() }) }
            case "mediaTypes": mediaTypes = try optional { json throws(JSONReadError) in try json.readArray(of: { json throws(JSONReadError) in try json.read(MediaType.self) }) }
            case "burstIdentifier": burstIdentifier = try optional { json throws(JSONReadError) in try json.readString() }
            case "predicate": predicate = try optional { json throws(JSONReadError) in try json.readString() }
            case "sort": sort = try optional { json throws(JSONReadError) in try json.readArray(of: SortDescriptor.self) }
            case "includeHidden": includeHidden = try optional { json throws(JSONReadError) in try json.readBool() }
            case "includeTrashed": includeTrashed = try optional { json throws(JSONReadError) in try json.readBool() }
            case "includeAllBurstAssets": includeAllBurstAssets = try optional { json throws(JSONReadError) in try json.readBool() }
            case "limit": limit = try optional { json throws(JSONReadError) in try json.readInt() }
            default: try json.skipValue()
            }
        }
    }
}

/// Text written into predicates.
public enum PredicateText {
    /// `text` as a double-quoted predicate string literal, its backslashes and quotes escaped.
    public static func quoted(_ text: String) -> String {
        var literal = "\""
        for character in text {
            if character == "\\" || character == "\"" { literal.append("\\") }
            literal.append(character)
        }
        return literal + "\""
    }
}
