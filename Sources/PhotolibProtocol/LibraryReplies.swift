import CompactJSON
import PhotoModel

/// One page of a `fetchAssets` result.
public struct AssetFetchResult: Sendable, Hashable, Codable {
    /// The size of the whole result, not just this page.
    public var count: Int
    /// The assets of the requested page, in the result's order.
    public var assets: [Asset]
    /// The library's change token at which the result was evaluated.
    public var token: String

    public init(count: Int, assets: [Asset], token: String) {
        self.count = count
        self.assets = assets
        self.token = token
    }
}

/// One page of a `fetchCollections` result.
public struct CollectionFetchResult: Sendable, Hashable, Codable {
    /// The size of the whole result, not just this page.
    public var count: Int
    /// The collections of the requested page, in the result's order.
    public var collections: [AssetCollection]
    /// The library's change token at which the result was evaluated.
    public var token: String

    public init(count: Int, collections: [AssetCollection], token: String) {
        self.count = count
        self.collections = collections
        self.token = token
    }
}

/// What a committed `performChanges` call produced.
public struct ChangeResult: Sendable, Hashable, Codable {
    /// The library's change token right after the transaction.
    public var token: String
    /// The real id of each placeholder the changes created, keyed by placeholder.
    public var created: [String: String]

    public init(token: String, created: [String: String]) {
        self.token = token
        self.created = created
    }
}

/// One batch of the persistent change history.
public struct PersistentChangesPage: Sendable, Hashable, Codable {
    /// The committed transactions after the `since` token, oldest first.
    public var changes: [PersistentChange]
    /// The token to pass as `since` next time.
    public var token: String
    /// Whether more transactions follow; fetch again from `token`.
    public var hasMore: Bool

    public init(changes: [PersistentChange], token: String, hasMore: Bool) {
        self.changes = changes
        self.token = token
        self.hasMore = hasMore
    }
}

/// The ids one committed transaction inserted, updated and deleted.
public struct PersistentChange: Sendable, Hashable, Codable {
    /// The library's change token right after this transaction.
    public var token: String
    public var insertedAssetIds: [String]
    public var updatedAssetIds: [String]
    public var deletedAssetIds: [String]
    public var insertedCollectionIds: [String]
    public var updatedCollectionIds: [String]
    public var deletedCollectionIds: [String]

    public init(token: String, insertedAssetIds: [String], updatedAssetIds: [String], deletedAssetIds: [String], insertedCollectionIds: [String], updatedCollectionIds: [String], deletedCollectionIds: [String]) {
        self.token = token
        self.insertedAssetIds = insertedAssetIds
        self.updatedAssetIds = updatedAssetIds
        self.deletedAssetIds = deletedAssetIds
        self.insertedCollectionIds = insertedCollectionIds
        self.updatedCollectionIds = updatedCollectionIds
        self.deletedCollectionIds = deletedCollectionIds
    }
}

/// The reply of `updateObservation`: the added queries' full results at `token`.
public struct ObservationUpdate: Sendable, Hashable, Codable {
    /// The change token the results are at; the stream reports them in the replies after it.
    public var token: String
    /// One full result per added query.
    public var results: [FetchResultChange]

    public init(token: String, results: [FetchResultChange]) {
        self.token = token
        self.results = results
    }
}

/// The reply of `updateObservation` as a client that keeps results compactly reads it: each added query's ids go
/// straight into ``ResultIdentifiers``, with no string made per id.
public struct CompactObservationUpdate: Sendable, Decodable {
    /// The change token the results are at.
    public var token: String
    /// Each added query's full result, by the name it was added under.
    public var results: [String: ResultIdentifiers]

    public init(from decoder: any Decoder) throws {
        struct Result: Decodable {
            var name: String
            var ids: [String]?
            var packedIds: String?
        }
        struct Update: Decodable {
            var token: String
            var results: [Result]
        }
        let update = try Update(from: decoder)
        token = update.token
        results = try Dictionary(update.results.map { result in
            guard var packed = result.packedIds else { return (result.name, ResultIdentifiers(result.ids ?? [])) }
            guard let ids = packed.withUTF8({ ResultIdentifiers(packedIDs: UnsafeRawBufferPointer($0)) }) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "a result's packedIds are not whole ids in base64"))
            }
            return (result.name, ids)
        }) { first, _ in first }
    }
}

extension CompactObservationUpdate: JSONReadable {
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var token: String?, results: [String: ResultIdentifiers] = [:], hasResults = false
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "token": token = try json.readString()
            case "results":
                hasResults = true
                try json.readArray { json throws(JSONReadError) in
                    var name: String?, count = 0, ids = ResultIdentifiers([])
                    try json.readObject { key, json throws(JSONReadError) in
                        switch key {
                        case "name": name = try json.readString()
                        // Sent before the ids: room is made for them once.
                        case "count": count = try json.readInt()
                        case "ids":
                            ids = try json.readOptional { json throws(JSONReadError) in
                                try ResultIdentifiers(reading: &json, expectedCount: count)
                            } ?? ids
                        case "packedIds":
                            guard let packed = try json.readString(parsing: ResultIdentifiers.init(packedIDs:)) else {
                                throw json.error("a result's packedIds are not whole ids in base64")
                            }
                            ids = packed
                        default: try json.skipValue()
                        }
                    }
                    guard let name else { throw json.error("a result lacks its name") }
                    results[name] = results[name] ?? ids
                }
            default: try json.skipValue()
            }
        }
        guard let token, hasResults else { throw json.error("an observation update lacks its token or results") }
        self.token = token
        self.results = results
    }
}

extension ObservationUpdate: JSONReadable {
    /// Reads the added results' ids without `JSONDecoder`'s cost per id.
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var token: String?, results: [FetchResultChange]?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "token": token = try json.readString()
            case "results": results = try json.readArray(of: FetchResultChange.self)
            default: try json.skipValue()
            }
        }
        guard let token, let results else { throw json.error("an observation update lacks its token or results") }
        self.init(token: token, results: results)
    }
}

extension ObservationUpdate: JSONWritable {
    public func write(to json: inout JSONWriter) {
        write(to: &json) { $0.array(results) { $1.write(to: &$0) } }
    }

    /// Writes the update with `writeResults` writing its results array (in place of `self.results`).
    public func write(to json: inout JSONWriter, results writeResults: (inout JSONWriter) -> Void) {
        json.beginObject()
        json.key("token"); json.string(token)
        json.key("results"); writeResults(&json)
        json.endObject()
    }
}

/// One reply of an `Observe` stream: the current results first, then one event per committed transaction.
public struct LibraryChangeEvent: Sendable, Hashable, Codable {
    /// The library's change token after this event.
    public var token: String
    /// The token of the event before; nil for the first event, the snapshot.
    public var previousToken: String?
    /// The objects the transaction inserted, changed or removed; empty for the snapshot and a reload.
    public var objects: [ObjectChange]
    /// The named results: every one in the snapshot, afterwards only those the transaction changed.
    public var results: [FetchResultChange]
    /// Names the stream in `updateObservation` calls; sent with the snapshot only.
    public var observerId: String?

    /// Whether this is the first event, holding each result's full ids.
    public var isSnapshot: Bool { previousToken == nil }

    public init(token: String, previousToken: String?, objects: [ObjectChange] = [], results: [FetchResultChange],
                observerId: String? = nil) {
        self.token = token
        self.previousToken = previousToken
        self.objects = objects
        self.results = results
        self.observerId = observerId
    }

    enum CodingKeys: String, CodingKey { case token, previousToken, objects, results, observerId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decode(String.self, forKey: .token)
        previousToken = try container.decodeIfPresent(String.self, forKey: .previousToken)
        objects = try container.decodeIfPresent([ObjectChange].self, forKey: .objects) ?? []
        results = try container.decode([FetchResultChange].self, forKey: .results)
        observerId = try container.decodeIfPresent(String.self, forKey: .observerId)
    }

    /// The snapshot has no `previousToken` and no `objects`; every later event has both.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encodeIfPresent(previousToken, forKey: .previousToken)
        if !isSnapshot { try container.encode(objects, forKey: .objects) }
        try container.encode(results, forKey: .results)
        try container.encodeIfPresent(observerId, forKey: .observerId)
    }
}

extension LibraryChangeEvent: JSONWritable, JSONReadable {
    /// Writes what `encode(to:)` writes, without `JSONEncoder`'s cost per id of a snapshot.
    public func write(to json: inout JSONWriter) {
        write(to: &json) { $0.array(results) { $1.write(to: &$0) } }
    }

    /// Writes the event with `writeResults` writing its results array (in place of `self.results`).
    public func write(to json: inout JSONWriter, results writeResults: (inout JSONWriter) -> Void) {
        json.beginObject()
        json.key("token"); json.string(token)
        if let previousToken {
            json.key("previousToken"); json.string(previousToken)
            json.key("objects"); json.array(objects) { $1.write(to: &$0) }
        }
        json.key("results"); writeResults(&json)
        if let observerId { json.key("observerId"); json.string(observerId) }
        json.endObject()
    }

    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var token: String?, previousToken: String?, objects: [ObjectChange] = [], results: [FetchResultChange]?
        var observerId: String?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "token": token = try json.readString()
            case "previousToken": previousToken = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            case "objects": objects = try json.readOptional { json throws(JSONReadError) in try json.readArray(of: ObjectChange.self) } ?? []
            case "results": results = try json.readArray(of: FetchResultChange.self)
            case "observerId": observerId = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            default: try json.skipValue()
            }
        }
        guard let token, let results else { throw json.error("a change event lacks its token or results") }
        self.init(token: token, previousToken: previousToken, objects: objects, results: results, observerId: observerId)
    }
}
