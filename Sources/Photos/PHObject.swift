import Foundation
import PhotoLibrary
import Synchronization

/// PhotoKit's `PHObject`: an object of the library, named by its local identifier. Objects are snapshots:
/// fetch again (or use `PHObjectChangeDetails.objectAfterChanges`) to see a change.
public class PHObject: NSObject, @unchecked Sendable {
    // @unchecked: immutable; Swift cannot check a class open to subclasses, or a subclass of one.
    private let identifier: String

    init(localIdentifier: String) {
        identifier = localIdentifier
    }

    /// The identifier that names this object in the library, stable forever.
    public var localIdentifier: String { identifier }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHObject else { return false }
        return other.localIdentifier == localIdentifier
    }

    public override var hash: Int { localIdentifier.hashValue }

    public override var description: String { "<\(type(of: self)): \(localIdentifier)>" }
}

/// PhotoKit's `PHObjectPlaceholder`: an object created in a change block. Its `localIdentifier` is the final
/// identifier of the object it stands for from the moment it exists, inside the block (the id the module chose and
/// the daemon gives the object), as on Apple's platforms.
public final class PHObjectPlaceholder: PHObject, @unchecked Sendable {
    // @unchecked: a subclass of a class other than NSObject cannot be checked; its state is its lets and the Mutex.
    private let committedIdentifier = Mutex<String?>(nil)

    /// The placeholder name the change block used (`@asset1`).
    let placeholder: String
    /// The id chosen for the object; nil for a placeholder of an object that exists already.
    let chosenIdentifier: String?

    init(placeholder: String, identifier: String, isChosen: Bool = true) {
        self.placeholder = placeholder
        self.chosenIdentifier = isChosen ? identifier : nil
        super.init(localIdentifier: identifier)
    }

    /// The object's identifier: the one chosen for it, or, when its file duplicated an asset of the library, that
    /// asset's once the block committed.
    public override var localIdentifier: String {
        committedIdentifier.withLock { $0 } ?? super.localIdentifier
    }

    func commit(as identifier: String) {
        committedIdentifier.withLock { $0 = identifier }
    }
}

/// PhotoKit's `PHAssetEditOperation`.
public enum PHAssetEditOperation: Int, Sendable {
    case delete = 1
    case content = 2
    case properties = 3
}

/// PhotoKit's `PHCollectionEditOperation`.
public enum PHCollectionEditOperation: Int, Sendable {
    case deleteContent = 1
    case removeContent = 2
    case addContent = 3
    case createContent = 4
    case rearrangeContent = 5
    case delete = 6
    case rename = 7
}

/// PhotoKit's `PHAsset`: a photo, video or audio item.
public final class PHAsset: PHObject, @unchecked Sendable {
    // @unchecked: immutable; Swift cannot check a class open to subclasses, or a subclass of one.
    /// The daemon's description of the asset.
    package let asset: Asset

    package init(_ asset: Asset) {
        self.asset = asset
        super.init(localIdentifier: asset.id)
    }

    public var mediaType: PHAssetMediaType { PHAssetMediaType(asset.mediaType) }
    public var mediaSubtypes: PHAssetMediaSubtype { PHAssetMediaSubtype(asset.mediaSubtypes) }
    /// Width as displayed, after the EXIF orientation (and the edit, once there is one).
    public var pixelWidth: Int { asset.pixelWidth }
    public var pixelHeight: Int { asset.pixelHeight }
    public var creationDate: Date? { asset.creationDate.map(Date.init) }
    public var modificationDate: Date? { asset.modificationDate.map(Date.init) }
    /// When the asset entered the library; always known here, optional as Apple declares it.
    public var addedDate: Date? { Date(asset.addedDate) }
    public var location: PHLocation? { asset.location.map(PHLocation.init) }
    public var duration: TimeInterval { asset.duration }
    public var isFavorite: Bool { asset.isFavorite }
    public var isHidden: Bool { asset.isHidden }
    public var burstIdentifier: String? { asset.burstIdentifier }
    /// Whether this asset stands for its burst: its representative, the one the library shows unless asked for all.
    public var representsBurst: Bool { asset.burstIdentifier != nil && asset.representsBurst != false }
    public var hasAdjustments: Bool { asset.hasAdjustments }
    /// The format of the adjustment data of the asset's edit; nil without an edit. Read from the daemon when asked.
    public var adjustmentFormatIdentifier: String? {
        guard hasAdjustments else { return nil }
        let assetId = localIdentifier
        let input = try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.requestContentEditingInput(for: assetId)
        }
        return input?.currentAdjustment?.formatIdentifier
    }
    /// The name of the primary file when it was imported.
    public var originalFilename: String { asset.originalFilename }

    /// The assets of the user's library, without hidden ones unless `options` asks for them.
    public class func fetchAssets(with options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        PHFetchResult(assets: options.assetQuery(), options: options)
    }

    public class func fetchAssets(
        with mediaType: PHAssetMediaType, options: PHFetchOptions?
    ) -> PHFetchResult<PHAsset> {
        var query = options.assetQuery()
        query.mediaTypes = [mediaType.wireValue]
        return PHFetchResult(assets: query, options: options)
    }

    /// The assets of an album (in its order), smart album or moment; a transient collection's assets in its order.
    public class func fetchAssets(in assetCollection: PHAssetCollection, options: PHFetchOptions?) -> PHFetchResult<
        PHAsset
    > {
        if let members = assetCollection.transientMembers {
            return PHFetchResult(fixed: members.compactMap { $0 as? PHAsset })
        }
        var query = options.assetQuery()
        query.collection = assetCollection.localIdentifier
        return PHFetchResult(assets: query, options: options)
    }

    /// The assets with these identifiers, hidden ones too (as PhotoKit gives them).
    public class func fetchAssets(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?)
        -> PHFetchResult<PHAsset>
    {
        var query = options.assetQuery()
        query.ids = identifiers
        query.includeHidden = true
        return PHFetchResult(assets: query, options: options)
    }

    /// Every asset of a burst, the representative among them.
    public class func fetchAssets(withBurstIdentifier burstIdentifier: String, options: PHFetchOptions?)
        -> PHFetchResult<PHAsset>
    {
        var query = options.assetQuery()
        query.burstIdentifier = burstIdentifier
        query.includeAllBurstAssets = true
        return PHFetchResult(assets: query, options: options)
    }

    /// The assets named by AssetsLibrary URLs (`assets-library://asset/asset.JPG?id=ID&ext=JPG`).
    public class func fetchAssets(withALAssetURLs assetURLs: [URL], options: PHFetchOptions?) -> PHFetchResult<PHAsset>
    {
        fetchAssets(withLocalIdentifiers: assetURLs.compactMap(AssetURL.identifier(in:)), options: options)
    }

    /// The assets that stand for a collection: its first three.
    public class func fetchKeyAssets(in assetCollection: PHAssetCollection, options: PHFetchOptions?) -> PHFetchResult<
        PHAsset
    >? {
        var query = options.assetQuery()
        query.collection = assetCollection.localIdentifier
        query.limit = min(query.limit ?? 3, 3)
        return PHFetchResult(assets: query, options: options)
    }

    /// PhotoKit's `requestContentEditingInput(with:completionHandler:)`: the file to edit and how it was edited.
    @discardableResult
    public func requestContentEditingInput(
        with options: PHContentEditingInputRequestOptions?,
        completionHandler: @escaping (PHContentEditingInput?, [AnyHashable: Any]) -> Void
    ) -> PHContentEditingInputRequestID {
        ContentEditingRequests.start(
            for: self, options: options ?? PHContentEditingInputRequestOptions(),
            completionHandler: completionHandler)
    }

    /// Cancels a `requestContentEditingInput` whose handler has not run yet.
    public func cancelContentEditingInputRequest(_ requestID: PHContentEditingInputRequestID) {
        ContentEditingRequests.cancel(requestID)
    }
}

extension Date {
    init(_ timestamp: Timestamp) {
        self.init(timeIntervalSince1970: timestamp.secondsSince1970)
    }
}

extension Timestamp {
    /// The instant of `date`, written in the local time zone of this process.
    init(_ date: Date) {
        self.init(
            secondsSince1970: date.timeIntervalSince1970,
            utcOffsetSeconds: TimeZone.current.secondsFromGMT(for: date))
    }
}
