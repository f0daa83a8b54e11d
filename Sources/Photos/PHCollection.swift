import Foundation
import PhotoLibrary

/// PhotoKit's `PHCollection`: an asset collection or a collection list.
public class PHCollection: PHObject, @unchecked Sendable {
    // @unchecked: immutable; Swift cannot check a class open to subclasses, or a subclass of one.
    package let collection: AssetCollection
    /// The members of a transient collection (its assets, or a transient list's collections), which lives only in
    /// this program; nil for the library's collections.
    let transientMembers: [PHObject]?

    package init(_ collection: AssetCollection) {
        self.collection = collection
        transientMembers = nil
        super.init(localIdentifier: collection.id)
    }

    /// A collection of `members` that lives only in this program, as PhotoKit's transient collections.
    init(transient collection: AssetCollection, members: [PHObject]) {
        self.collection = collection
        transientMembers = members
        super.init(localIdentifier: collection.id)
    }

    /// Whether it lives only in this program.
    var isTransient: Bool { transientMembers != nil }

    /// The right subclass for a collection of the library.
    package static func make(_ collection: AssetCollection) -> PHCollection {
        collection.kind == .folder ? PHCollectionList(collection) : PHAssetCollection(collection)
    }

    public var localizedTitle: String? { collection.title }
    public var canContainAssets: Bool { collection.kind != .folder }
    public var canContainCollections: Bool { collection.kind == .folder }

    public func canPerform(_ anOperation: PHCollectionEditOperation) -> Bool {
        guard PHPhotoLibrary.authorizationStatus() == .authorized else { return false }
        switch collection.kind {
        case .album: return anOperation != .createContent
        case .folder: return true
        case .smartAlbum, .moment: return false
        }
    }

    /// The albums and folders at the top level, newest first.
    public class func fetchTopLevelUserCollections(with options: PHFetchOptions?) -> PHFetchResult<PHCollection> {
        var query = options.collectionQuery()
        query.topLevelUserCollections = true
        return PHFetchResult(collections: query, options: options)
    }

    /// The albums and folders inside a folder, in its order; a transient list's collections in its order.
    public class func fetchCollections(in collectionList: PHCollectionList, options: PHFetchOptions?) -> PHFetchResult<
        PHCollection
    > {
        if let members = collectionList.transientMembers {
            return PHFetchResult(fixed: members.compactMap { $0 as? PHCollection })
        }
        var query = options.collectionQuery()
        query.parent = collectionList.localIdentifier
        return PHFetchResult(collections: query, options: options)
    }
}

/// PhotoKit's `PHAssetCollection`: an album, smart album or moment.
public final class PHAssetCollection: PHCollection, @unchecked Sendable {
    // @unchecked: immutable; Swift cannot check a class open to subclasses, or a subclass of one.
    public var assetCollectionType: PHAssetCollectionType {
        switch collection.kind {
        case .smartAlbum: .smartAlbum
        case .moment: .moment
        case .album, .folder: .album
        }
    }

    public var assetCollectionSubtype: PHAssetCollectionSubtype { PHAssetCollectionSubtype(collection.subtype) }
    /// Exact, smart albums included.
    public var estimatedAssetCount: Int { collection.assetCount ?? NSNotFound }
    public var startDate: Date? { collection.startDate.map(Date.init) }
    public var endDate: Date? { collection.endDate.map(Date.init) }
    public var approximateLocation: PHLocation? { nil }
    /// A moment's cities, the most photographed first, at most three (CONTRACT §15); empty for albums.
    public var localizedLocationNames: [String] { collection.locationNames }

    /// The collections of `type` and `subtype`. As on Apple's platforms, smart albums of `.any` subtype (and of
    /// `.albumRegular`, which pickers ask for) are every smart album but Recently Deleted and Duplicates, which
    /// PhotoKit keeps private.
    public class func fetchAssetCollections(
        with type: PHAssetCollectionType, subtype: PHAssetCollectionSubtype,
        options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        var query = options.collectionQuery()
        query.kind = type.kind
        if type == .smartAlbum && (subtype == .any || subtype == .albumRegular) {
            let hidden = [CollectionSubtype.smartAlbumRecentlyDeleted, .smartAlbumDuplicates]
                .map { "subtype != '\($0.rawValue)'" }.joined(separator: " AND ")
            query.predicate = query.predicate.map { "(\($0)) AND \(hidden)" } ?? hidden
        } else if subtype != .any {
            // A subtype the library does not keep matches nothing.
            query.subtype = subtype.wireValue ?? .folderRegular
        }
        return PHFetchResult(collections: query, options: options)
    }

    public class func fetchAssetCollections(
        withLocalIdentifiers identifiers: [String],
        options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        var query = options.collectionQuery()
        query.ids = identifiers
        return PHFetchResult(collections: query, options: options)
    }

    public class func fetchAssetCollectionsContaining(
        _ asset: PHAsset, with type: PHAssetCollectionType,
        options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        var query = options.collectionQuery()
        query.containingAsset = asset.localIdentifier
        query.kind = type.kind
        return PHFetchResult(collections: query, options: options)
    }

    public class func fetchMoments(with options: PHFetchOptions?) -> PHFetchResult<PHAssetCollection> {
        fetchAssetCollections(with: .moment, subtype: .any, options: options)
    }

}

/// PhotoKit's `PHCollectionList`: a folder of albums and folders.
public final class PHCollectionList: PHCollection, @unchecked Sendable {
    // @unchecked: immutable; Swift cannot check a class open to subclasses, or a subclass of one.
    public var collectionListType: PHCollectionListType { .folder }
    public var collectionListSubtype: PHCollectionListSubtype { .regularFolder }
    public var startDate: Date? { collection.startDate.map(Date.init) }
    public var endDate: Date? { collection.endDate.map(Date.init) }
    /// Empty: Apple fills it for moment lists, and the library's collection lists are folders.
    public var localizedLocationNames: [String] { collection.locationNames }

    public class func fetchCollectionLists(
        withLocalIdentifiers identifiers: [String],
        options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        var query = options.collectionQuery()
        query.ids = identifiers
        query.kind = .folder
        return PHFetchResult(collections: query, options: options)
    }

    public class func fetchCollectionLists(
        with collectionListType: PHCollectionListType,
        subtype: PHCollectionListSubtype,
        options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        var query = options.collectionQuery()
        query.kind = .folder
        if collectionListType != .folder || (subtype != .any && subtype != .regularFolder) {
            query.ids = []  // the library keeps folders only
        }
        return PHFetchResult(collections: query, options: options)
    }

    /// The folders that hold `collection`: its parent, if it has one.
    public class func fetchCollectionListsContaining(
        _ collection: PHCollection,
        options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        var query = options.collectionQuery()
        query.ids = collection.collection.parentId.map { [$0] } ?? []
        query.kind = .folder
        return PHFetchResult(collections: query, options: options)
    }
}

extension PHAssetCollectionType {
    var kind: CollectionKind {
        switch self {
        case .album: .album
        case .smartAlbum: .smartAlbum
        case .moment: .moment
        }
    }
}
