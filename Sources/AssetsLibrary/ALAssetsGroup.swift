import Foundation
import PhotoLibrary
import Photos
import Synchronization

public let ALAssetsGroupPropertyName = "ALAssetsGroupPropertyName"
public let ALAssetsGroupPropertyType = "ALAssetsGroupPropertyType"
public let ALAssetsGroupPropertyPersistentID = "ALAssetsGroupPropertyPersistentID"
public let ALAssetsGroupPropertyURL = "ALAssetsGroupPropertyURL"

public typealias ALAssetsGroupEnumerationResultsBlock = (ALAsset?, Int, UnsafeMutablePointer<ObjCBool>?) -> Void

/// AssetsLibrary's `ALAssetsFilter`: which media types a group shows.
public final class ALAssetsFilter: NSObject, Sendable {
    let mediaTypes: [MediaType]?

    private init(mediaTypes: [MediaType]?) {
        self.mediaTypes = mediaTypes
    }

    public class func allPhotos() -> ALAssetsFilter { ALAssetsFilter(mediaTypes: [.image]) }
    public class func allVideos() -> ALAssetsFilter { ALAssetsFilter(mediaTypes: [.video]) }
    public class func allAssets() -> ALAssetsFilter { ALAssetsFilter(mediaTypes: nil) }
}

/// AssetsLibrary's `ALAssetsGroup`: the library (`ALAssetsGroupSavedPhotos`, `ALAssetsGroupLibrary`), an album
/// (`ALAssetsGroupAlbum`) or an event, the library's moment of one day (`ALAssetsGroupEvent`).
public final class ALAssetsGroup: NSObject, Sendable {
    let collection: AssetCollection
    private let filter = Mutex(ALAssetsFilter.allAssets())

    init(_ collection: AssetCollection) {
        self.collection = collection
    }

    /// The group's type, `ALAssetsGroupSavedPhotos`, `ALAssetsGroupAlbum` or `ALAssetsGroupEvent`.
    var groupType: ALAssetsGroupType {
        switch collection.kind {
        case .album, .folder: ALAssetsGroupAlbum
        case .moment: ALAssetsGroupEvent
        case .smartAlbum: ALAssetsGroupSavedPhotos
        }
    }

    /// `ALAssetsGroupPropertyName` (String), `…Type` (NSNumber), `…PersistentID` (String), `…URL` (URL).
    public func value(forProperty property: String) -> Any! {
        switch property {
        case ALAssetsGroupPropertyName: collection.title
        case ALAssetsGroupPropertyType: NSNumber(value: groupType)
        case ALAssetsGroupPropertyPersistentID: collection.id
        case ALAssetsGroupPropertyURL: AssetURL.group(collection.id)
        default: nil
        }
    }

    /// Albums take assets; the library and events are kept by rule.
    public var isEditable: Bool { collection.kind == .album }

    public func setAssetsFilter(_ filter: ALAssetsFilter) {
        self.filter.withLock { $0 = filter }
    }

    /// The number of assets the filter lets through.
    public func numberOfAssets() -> Int {
        assets().count
    }

    /// Calls `enumerationBlock` with each asset in the group's order, then once with nil and `NSNotFound`.
    public func enumerateAssets(_ enumerationBlock: ALAssetsGroupEnumerationResultsBlock) {
        enumerateAssets(options: [], using: enumerationBlock)
    }

    /// As `enumerateAssets(_:)`, backwards with `.reverse`.
    public func enumerateAssets(
        options: NSEnumerationOptions = [], using enumerationBlock: ALAssetsGroupEnumerationResultsBlock
    ) {
        let assets = assets()
        enumerate(assets, at: IndexSet(integersIn: 0..<assets.count), options: options, using: enumerationBlock)
    }

    /// Calls `enumerationBlock` with the assets at `indexSet`, then once with nil and `NSNotFound`.
    public func enumerateAssets(
        at indexSet: IndexSet, options: NSEnumerationOptions = [],
        using enumerationBlock: ALAssetsGroupEnumerationResultsBlock
    ) {
        let assets = assets()
        enumerate(
            assets, at: indexSet.filteredIndexSet { $0 < assets.count }, options: options, using: enumerationBlock)
    }

    private func enumerate(
        _ assets: PHFetchResult<PHAsset>, at indexes: IndexSet, options: NSEnumerationOptions,
        using enumerationBlock: ALAssetsGroupEnumerationResultsBlock
    ) {
        var stopped = false
        assets.enumerateObjects(at: indexes, options: options) { asset, index, stop in
            var stopFlag = ObjCBool(false)
            enumerationBlock(ALAsset(asset.asset), index, &stopFlag)
            if stopFlag.boolValue {
                stop.pointee = true
                stopped = true
            }
        }
        guard !stopped else { return }
        var stop = ObjCBool(false)
        enumerationBlock(nil, NSNotFound, &stop)
    }

    /// The group's key image: a square thumbnail of its last asset; nil when it is empty.
    public func posterImage() -> PHImage! {
        assets().lastObject.map { ALAsset($0.asset).thumbnail() } ?? nil
    }

    /// Appends an asset to an album; false for the library and events, and when the daemon refuses.
    @discardableResult
    public func add(_ asset: ALAsset) -> Bool {
        guard isEditable else { return false }
        let album = collection.id, id = asset.asset.id
        return
            (try? LibraryClient.shared.call(idempotent: false) { library throws(PhotoLibraryError) in
                try await library.performChanges([ChangeRequest(op: "addAssets", target: album, ids: [id])])
            }) != nil
    }

    public override var description: String {
        "ALAssetsGroup - Name:\(collection.title), Type:\(groupType), Assets count:\(numberOfAssets())"
    }

    /// The group's assets that pass the filter, in the group's order.
    private func assets() -> PHFetchResult<PHAsset> {
        let options = PHFetchOptions()
        if let mediaType = filter.withLock({ $0.mediaTypes?.first }) {
            options.predicate = PHPredicate(format: "mediaType == %d", mediaType.photoKitValue)
        }
        return PHAsset.fetchAssets(in: PHAssetCollection(collection), options: options)
    }

    /// The groups of these types, the library first, then albums by title, then events by date.
    static func groups(of types: ALAssetsGroupType) throws -> [ALAssetsGroup] {
        var queries: [CollectionQuery] = []
        if types & (ALAssetsGroupSavedPhotos | ALAssetsGroupLibrary) != 0 {
            queries.append(CollectionQuery(subtype: .smartAlbumUserLibrary))
        }
        if types & ALAssetsGroupAlbum != 0 { queries.append(CollectionQuery(kind: .album)) }
        if types & ALAssetsGroupEvent != 0 { queries.append(CollectionQuery(kind: .moment)) }
        let wanted = queries
        let collections = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
            var collections: [AssetCollection] = []
            for query in wanted { collections += try await library.fetchAllCollections(matching: query).collections }
            return collections
        }
        return collections.map(ALAssetsGroup.init)
    }

    /// The group with this id; nil when there is none.
    static func fetch(_ identifier: String) throws -> ALAssetsGroup? {
        let collection = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.fetchCollections(matching: CollectionQuery(ids: [identifier])).collections.first
        }
        return collection.map(ALAssetsGroup.init)
    }
}
