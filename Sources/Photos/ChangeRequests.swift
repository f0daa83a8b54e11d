import Foundation
import PhotoLibrary

/// PhotoKit's `PHChangeRequest`.
public class PHChangeRequest: NSObject, @unchecked Sendable {
    /// The block this request belongs to; nil when made outside of one (then it does nothing).
    let block: ChangeBlock?

    init(_ name: String) {
        block = ChangeBlock.required(for: name)
    }

    func append(_ request: ChangeRequest) {
        block?.append(request)
    }
}

/// PhotoKit's `PHAssetChangeRequest`: creates, edits or deletes assets inside a change block.
public class PHAssetChangeRequest: PHChangeRequest, @unchecked Sendable {
    /// The asset's identifier, or the placeholder's for a created one.
    let target: String
    private var favorite: Bool?
    private var hidden: Bool?
    private var date: Date??
    private var place: PHLocation??
    private var output: PHContentEditingOutput?

    /// The placeholder of the asset this request creates; nil for a request that edits an existing asset.
    public let placeholderForCreatedAsset: PHObjectPlaceholder?

    /// A request to change `asset`.
    public init(for asset: PHAsset) {
        target = asset.localIdentifier
        placeholderForCreatedAsset = nil
        super.init("PHAssetChangeRequest(for:)")
    }

    /// A request that creates an asset from a file; the file is copied into the library.
    required init(creatingFrom fileURL: URL?, name: String) {
        let block = ChangeBlock.current
        let placeholder = block?.makePlaceholder("asset") ?? PHObjectPlaceholder(placeholder: "@asset")
        target = placeholder.placeholder
        placeholderForCreatedAsset = placeholder
        super.init(name)
        if let fileURL {
            append(ChangeRequest(op: "createAsset", path: fileURL.standardizedFileURL.path, placeholder: target))
        }
    }

    /// Creates an asset from an image file (JPEG, PNG, HEIC, …); the file is copied into the library.
    public class func creationRequestForAssetFromImage(atFileURL fileURL: URL) -> Self? {
        Self(creatingFrom: fileURL, name: "creationRequestForAssetFromImage(atFileURL:)")
    }

    /// Creates an asset from a video file; the file is copied into the library.
    public class func creationRequestForAssetFromVideo(atFileURL fileURL: URL) -> Self? {
        Self(creatingFrom: fileURL, name: "creationRequestForAssetFromVideo(atFileURL:)")
    }

    public var isFavorite: Bool {
        get { favorite ?? false }
        set { update(ChangeRequest(op: "updateAsset", target: target, isFavorite: newValue)); favorite = newValue }
    }

    public var isHidden: Bool {
        get { hidden ?? false }
        set { update(ChangeRequest(op: "updateAsset", target: target, isHidden: newValue)); hidden = newValue }
    }

    public var creationDate: Date? {
        get { date ?? nil }
        set {
            update(ChangeRequest(op: "updateAsset", target: target,
                                 creationDate: newValue.map { .set(Timestamp($0)) } ?? .cleared))
            date = .some(newValue)
        }
    }

    public var location: PHLocation? {
        get { place ?? nil }
        set {
            update(ChangeRequest(op: "updateAsset", target: target, location: newValue.map { .set($0.wireValue) } ?? .cleared))
            place = .some(newValue)
        }
    }

    /// Setting it commits the edit: the rendered file and its adjustment data (section 9 of the contract).
    public var contentEditingOutput: PHContentEditingOutput? {
        get { output }
        set {
            output = newValue
            guard let newValue else { return }
            append(newValue.editRequest(for: target))
        }
    }

    /// Reverts the asset to its original: the edit is dropped.
    public func revertAssetContentToOriginal() {
        append(ChangeRequest(op: "revertAsset", target: target))
    }

    /// Moves the assets to Recently Deleted.
    public class func deleteAssets(_ assets: NSFastEnumeration) {
        ChangeBlock.required(for: "PHAssetChangeRequest.deleteAssets(_:)")?
            .append(ChangeRequest(op: "deleteAssets", ids: assets.photoObjects.map(\.localIdentifier)))
    }

    private func update(_ request: ChangeRequest) {
        append(request)
    }
}

/// PhotoKit's `PHAssetCreationRequest`: creates an asset from resources.
public final class PHAssetCreationRequest: PHAssetChangeRequest, @unchecked Sendable {
    private var added = false

    required init(creatingFrom fileURL: URL?, name: String) {
        super.init(creatingFrom: fileURL, name: name)
    }

    /// A request whose resources are added with `addResource(with:fileURL:options:)`.
    public class func forAsset() -> PHAssetCreationRequest {
        PHAssetCreationRequest(creatingFrom: nil, name: "PHAssetCreationRequest.forAsset()")
    }

    public class func supportsAssetResourceTypes(_ types: [NSNumber]) -> Bool {
        types.allSatisfy { [PHAssetResourceType.photo, .video, .audio].map(\.rawValue).contains($0.intValue) }
    }

    /// Adds the asset's primary file (`.photo`, `.video` or `.audio`); the file is copied into the library.
    /// Other resource types are not kept by the library and are left out.
    public func addResource(with type: PHAssetResourceType, fileURL: URL, options: PHAssetResourceCreationOptions?) {
        guard !added, [.photo, .video, .audio].contains(type) else { return }
        added = true
        append(ChangeRequest(op: "createAsset", path: fileURL.standardizedFileURL.path, placeholder: target))
    }
}

/// PhotoKit's `PHAssetResourceCreationOptions`.
public final class PHAssetResourceCreationOptions: NSObject, @unchecked Sendable {
    public var originalFilename: String?
    public var uniformTypeIdentifier: String?
    public var shouldMoveFile = false
    public override init() {}
}

/// PhotoKit's `PHAssetCollectionChangeRequest`: creates, renames, fills or deletes albums inside a change block.
public final class PHAssetCollectionChangeRequest: PHChangeRequest, @unchecked Sendable {
    let target: String
    private var currentTitle: String

    /// The placeholder of the album this request creates; nil for a request that changes an existing album.
    public let placeholderForCreatedAssetCollection: PHObjectPlaceholder?

    private init(target: String, title: String, placeholder: PHObjectPlaceholder?, name: String) {
        self.target = target
        currentTitle = title
        placeholderForCreatedAssetCollection = placeholder
        super.init(name)
    }

    /// Creates an album at the top level.
    public class func creationRequestForAssetCollection(withTitle title: String) -> PHAssetCollectionChangeRequest {
        let placeholder = ChangeBlock.current?.makePlaceholder("album") ?? PHObjectPlaceholder(placeholder: "@album")
        let request = PHAssetCollectionChangeRequest(target: placeholder.placeholder, title: title, placeholder: placeholder,
                                                     name: "creationRequestForAssetCollection(withTitle:)")
        request.append(ChangeRequest(op: "createAlbum", placeholder: placeholder.placeholder, title: title))
        return request
    }

    /// A request to change an album; nil for a smart album or moment, which are read-only.
    public convenience init?(for assetCollection: PHAssetCollection) {
        guard assetCollection.assetCollectionType == .album else { return nil }
        self.init(target: assetCollection.localIdentifier, title: assetCollection.localizedTitle ?? "", placeholder: nil,
                  name: "PHAssetCollectionChangeRequest(for:)")
    }

    /// As `init(for:)`; `assets` is the album's current content, whose indexes `insertAssets` and `moveAssets` use.
    public convenience init?(for assetCollection: PHAssetCollection, assets: PHFetchResult<PHAsset>) {
        self.init(for: assetCollection)
    }

    public var title: String {
        get { currentTitle }
        set {
            currentTitle = newValue
            append(ChangeRequest(op: "updateCollection", target: target, title: newValue))
        }
    }

    public func addAssets(_ assets: NSFastEnumeration) {
        append(ChangeRequest(op: "addAssets", target: target, ids: assets.photoObjects.map(\.localIdentifier)))
    }

    public func insertAssets(_ assets: NSFastEnumeration, at indexes: IndexSet) {
        append(ChangeRequest(op: "insertAssets", target: target, ids: assets.photoObjects.map(\.localIdentifier),
                             indexes: Array(indexes)))
    }

    public func removeAssets(_ assets: NSFastEnumeration) {
        append(ChangeRequest(op: "removeAssets", target: target, ids: assets.photoObjects.map(\.localIdentifier)))
    }

    /// Removes the album's assets at `indexes`.
    public func removeAssets(at indexes: IndexSet) {
        let album = target
        guard let ids = try? LibraryClient.shared.call({ library throws(PhotoLibraryError) in
            try await library.fetchAllAssets(matching: AssetQuery(collection: album)).assets.map(\.id)
        }) else { return }
        append(ChangeRequest(op: "removeAssets", target: target, ids: indexes.filter(ids.indices.contains).map { ids[$0] }))
    }

    public func moveAssets(at fromIndexes: IndexSet, to toIndex: Int) {
        append(ChangeRequest(op: "moveAssets", target: target, indexes: Array(fromIndexes), toIndex: toIndex))
    }

    public func replaceAssets(at indexes: IndexSet, withAssets assets: NSFastEnumeration) {
        removeAssets(at: indexes)
        insertAssets(assets, at: indexes)
    }

    /// Deletes albums; their assets stay in the library.
    public class func deleteAssetCollections(_ assetCollections: NSFastEnumeration) {
        ChangeBlock.required(for: "PHAssetCollectionChangeRequest.deleteAssetCollections(_:)")?
            .append(ChangeRequest(op: "deleteCollections", ids: assetCollections.photoObjects.map(\.localIdentifier)))
    }
}

/// PhotoKit's `PHCollectionListChangeRequest`: creates, fills or deletes folders inside a change block.
public final class PHCollectionListChangeRequest: PHChangeRequest, @unchecked Sendable {
    let target: String
    private var currentTitle: String

    /// The placeholder of the folder this request creates; nil for a request that changes an existing folder.
    public let placeholderForCreatedCollectionList: PHObjectPlaceholder?

    private init(target: String, title: String, placeholder: PHObjectPlaceholder?, name: String) {
        self.target = target
        currentTitle = title
        placeholderForCreatedCollectionList = placeholder
        super.init(name)
    }

    /// Creates a folder at the top level.
    public class func creationRequestForCollectionList(withTitle title: String) -> PHCollectionListChangeRequest {
        let placeholder = ChangeBlock.current?.makePlaceholder("folder") ?? PHObjectPlaceholder(placeholder: "@folder")
        let request = PHCollectionListChangeRequest(target: placeholder.placeholder, title: title, placeholder: placeholder,
                                                    name: "creationRequestForCollectionList(withTitle:)")
        request.append(ChangeRequest(op: "createFolder", placeholder: placeholder.placeholder, title: title))
        return request
    }

    /// A request to change a folder.
    public convenience init?(for collectionList: PHCollectionList) {
        self.init(target: collectionList.localIdentifier, title: collectionList.localizedTitle ?? "", placeholder: nil,
                  name: "PHCollectionListChangeRequest(for:)")
    }

    /// As `init(for:)`; `childCollections` is the folder's current content.
    public convenience init?(for collectionList: PHCollectionList, childCollections: PHFetchResult<PHCollection>) {
        self.init(for: collectionList)
    }

    public var title: String {
        get { currentTitle }
        set {
            currentTitle = newValue
            append(ChangeRequest(op: "updateCollection", target: target, title: newValue))
        }
    }

    public func addChildCollections(_ collections: NSFastEnumeration) {
        append(ChangeRequest(op: "addChildCollections", target: target, ids: collections.photoObjects.map(\.localIdentifier)))
    }

    public func removeChildCollections(_ collections: NSFastEnumeration) {
        append(ChangeRequest(op: "removeChildCollections", target: target,
                             ids: collections.photoObjects.map(\.localIdentifier)))
    }

    public func moveChildCollections(at indexes: IndexSet, to toIndex: Int) {
        append(ChangeRequest(op: "moveChildCollections", target: target, indexes: Array(indexes), toIndex: toIndex))
    }

    /// Deletes folders.
    public class func deleteCollectionLists(_ collectionLists: NSFastEnumeration) {
        ChangeBlock.required(for: "PHCollectionListChangeRequest.deleteCollectionLists(_:)")?
            .append(ChangeRequest(op: "deleteCollections", ids: collectionLists.photoObjects.map(\.localIdentifier)))
    }
}
