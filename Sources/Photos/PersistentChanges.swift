import Foundation
import PhotoLibrary

/// PhotoKit's `PHObjectType`, with Apple's raw values.
public enum PHObjectType: Int, Sendable {
    case asset = 1
    case assetCollection = 2
    case collectionList = 3
}

/// PhotoKit's `PHPersistentChangeToken`: a point in the library's history. It is `NSSecureCoding`: archive it with
/// `NSKeyedArchiver` and fetch what changed after it in a later run.
public final class PHPersistentChangeToken: NSObject, NSSecureCoding, Sendable {
    /// The daemon's change token.
    let token: String

    package init(_ token: String) {
        self.token = token
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(token as NSString, forKey: "token")
    }

    public init?(coder: NSCoder) {
        guard let token = coder.decodeObject(of: NSString.self, forKey: "token") else { return nil }
        self.token = token as String
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? PHPersistentChangeToken)?.token == token
    }

    public override var hash: Int { token.hashValue }

    public override var description: String { "<PHPersistentChangeToken: \(token)>" }
}

/// PhotoKit's `PHPersistentObjectChangeDetails`: the objects of one type a transaction inserted, updated or deleted.
public final class PHPersistentObjectChangeDetails: NSObject, Sendable {
    public let objectType: PHObjectType
    public let insertedLocalIdentifiers: Set<String>
    public let updatedLocalIdentifiers: Set<String>
    public let deletedLocalIdentifiers: Set<String>

    init(objectType: PHObjectType, inserted: Set<String>, updated: Set<String>, deleted: Set<String>) {
        self.objectType = objectType
        insertedLocalIdentifiers = inserted
        updatedLocalIdentifiers = updated
        deletedLocalIdentifiers = deleted
    }
}

/// PhotoKit's `PHPersistentChange`: one committed transaction of the library's history.
public final class PHPersistentChange: NSObject, Sendable {
    /// The token after this transaction.
    public let changeToken: PHPersistentChangeToken
    private let details: [PHObjectType: PHPersistentObjectChangeDetails]

    init(changeToken: PHPersistentChangeToken, details: [PHObjectType: PHPersistentObjectChangeDetails]) {
        self.changeToken = changeToken
        self.details = details
    }

    /// The objects of `objectType` the transaction inserted, updated or deleted.
    public func changeDetails(for objectType: PHObjectType) throws -> PHPersistentObjectChangeDetails {
        details[objectType]
            ?? PHPersistentObjectChangeDetails(objectType: objectType, inserted: [], updated: [], deleted: [])
    }
}

/// PhotoKit's `PHPersistentChangeFetchResult`: the transactions after a token, in commit order.
public final class PHPersistentChangeFetchResult: NSObject, Sequence, Sendable {
    private let changes: [PHPersistentChange]

    init(changes: [PHPersistentChange]) {
        self.changes = changes
    }

    public func makeIterator() -> IndexingIterator<[PHPersistentChange]> {
        changes.makeIterator()
    }

    /// Calls `block` with each change in order until it sets the stop flag.
    public func enumerateChanges(_ block: (PHPersistentChange, UnsafeMutablePointer<ObjCBool>) -> Void) {
        var stop = ObjCBool(false)
        for change in changes {
            block(change, &stop)
            if stop.boolValue { return }
        }
    }
}

/// Reads the daemon's change history (`FetchPersistentChanges`) into PhotoKit's persistent changes.
enum PersistentChanges {
    /// Every transaction after `token`, page after page.
    static func fetch(since token: String) throws -> [PHPersistentChange] {
        let history = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
            var changes: [PersistentChange] = []
            var since = token
            while true {
                let page = try await library.fetchPersistentChanges(since: since, limit: 1_000)
                changes += page.changes
                since = page.token
                if !page.hasMore { return changes }
            }
        }
        let folders = try foldersAmong(Set(history.flatMap { $0.insertedCollectionIds + $0.updatedCollectionIds }))
        return history.map { change in
            func split(_ ids: [String]) -> (albums: Set<String>, folders: Set<String>) {
                (Set(ids.filter { !folders.contains($0) }), Set(ids.filter(folders.contains)))
            }
            let inserted = split(change.insertedCollectionIds), updated = split(change.updatedCollectionIds)
            // A collection deleted since is known no more: reported as an asset collection.
            let deleted = split(change.deletedCollectionIds)
            return PHPersistentChange(
                changeToken: PHPersistentChangeToken(change.token),
                details: [
                    .asset: PHPersistentObjectChangeDetails(
                        objectType: .asset, inserted: Set(change.insertedAssetIds),
                        updated: Set(change.updatedAssetIds),
                        deleted: Set(change.deletedAssetIds)),
                    .assetCollection: PHPersistentObjectChangeDetails(
                        objectType: .assetCollection, inserted: inserted.albums,
                        updated: updated.albums, deleted: deleted.albums),
                    .collectionList: PHPersistentObjectChangeDetails(
                        objectType: .collectionList, inserted: inserted.folders,
                        updated: updated.folders, deleted: deleted.folders),
                ])
        }
    }

    /// The folders (collection lists) among `ids` that exist.
    private static func foldersAmong(_ ids: Set<String>) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let collections = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.collections(withIds: Array(ids))
        }
        return Set(collections.values.filter { $0.kind == .folder }.map(\.id))
    }
}
