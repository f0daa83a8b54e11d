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
