/// One page of a `fetchAssets` result.
public struct AssetFetchResult: Sendable, Hashable, Codable {
    /// The size of the whole result, not just this page.
    public var count: Int
    /// The assets of the requested page, in the result's order.
    public var assets: [Asset]
    /// The library's change token at which the result was evaluated.
    public var token: String
}

/// One page of a `fetchCollections` result.
public struct CollectionFetchResult: Sendable, Hashable, Codable {
    /// The size of the whole result, not just this page.
    public var count: Int
    /// The collections of the requested page, in the result's order.
    public var collections: [AssetCollection]
    /// The library's change token at which the result was evaluated.
    public var token: String
}

/// What a committed `performChanges` call produced.
public struct ChangeResult: Sendable, Hashable, Codable {
    /// The library's change token right after the transaction.
    public var token: String
    /// The real id of each placeholder the changes created, keyed by placeholder.
    public var created: [String: String]
}

/// One batch of the persistent change history.
public struct PersistentChangesPage: Sendable, Hashable, Codable {
    /// The committed transactions after the `since` token, oldest first.
    public var changes: [PersistentChange]
    /// The token to pass as `since` next time.
    public var token: String
    /// Whether more transactions follow; fetch again from `token`.
    public var hasMore: Bool
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
}

/// What the daemon lets this user do, PhotoKit's `PHAuthorizationStatus`.
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

/// The reply of `AuthorizationStatus`.
struct AuthorizationStatusReply: Decodable, Sendable {
    var status: AuthorizationStatus
}
