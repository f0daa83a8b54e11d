import Foundation
import PhotoLibrary

/// PhotoKit's `PHAssetCollectionChangeRequest`: creates, renames, fills or deletes albums inside a change block.
public final class PHAssetCollectionChangeRequest: PHChangeRequest, @unchecked Sendable {
    let target: String
    private var currentTitle: String
    /// The album's assets in the order index-based changes count in: the fetch result the request was made with
    /// (`init(for:assets:)`), else the album's own order, read when first needed.
    private var order: [String]?

    /// The placeholder of the album this request creates; for a request that changes an album, one that names it.
    public let placeholderForCreatedAssetCollection: PHObjectPlaceholder

    private init(target: String, title: String, placeholder: PHObjectPlaceholder, order: [String]?, name: String) {
        self.target = target
        currentTitle = title
        placeholderForCreatedAssetCollection = placeholder
        self.order = order
        super.init(name)
    }

    /// Creates an album at the top level.
    public class func creationRequestForAssetCollection(withTitle title: String) -> PHAssetCollectionChangeRequest {
        let placeholder = ChangeBlock.current?.makePlaceholder("album")
            ?? PHObjectPlaceholder(placeholder: "@album", identifier: UUID().uuidString.lowercased())
        let request = PHAssetCollectionChangeRequest(target: placeholder.localIdentifier, title: title, placeholder: placeholder,
                                                     order: [], name: "creationRequestForAssetCollection(withTitle:)")
        request.append(ChangeRequest(op: "createAlbum", placeholder: placeholder.placeholder, title: title,
                                     id: placeholder.chosenIdentifier))
        return request
    }

    /// A request to change an album; nil for a smart album or moment, which are read-only.
    public convenience init?(for assetCollection: PHAssetCollection) {
        self.init(assetCollection, order: nil, name: "PHAssetCollectionChangeRequest(for:)")
    }

    /// As `init(for:)`; index-based changes (`insertAssets(_:at:)`, `removeAssets(at:)`, `moveAssets(at:to:)`,
    /// `replaceAssets(at:withAssets:)`) count in `assets`, the album's content as the program shows it.
    public convenience init?(for assetCollection: PHAssetCollection, assets: PHFetchResult<PHAsset>) {
        self.init(assetCollection, order: Array(assets.identifiers), name: "PHAssetCollectionChangeRequest(for:assets:)")
    }

    private convenience init?(_ album: PHAssetCollection, order: [String]?, name: String) {
        guard album.assetCollectionType == .album, !album.isTransient else { return nil }
        let placeholder = PHObjectPlaceholder(placeholder: album.localIdentifier, identifier: album.localIdentifier, isChosen: false)
        self.init(target: album.localIdentifier, title: album.localizedTitle ?? "", placeholder: placeholder, order: order,
                  name: name)
    }

    public var title: String {
        get { currentTitle }
        set {
            currentTitle = newValue
            append(ChangeRequest(op: "updateCollection", target: target, title: newValue))
        }
    }

    public func addAssets(_ assets: NSFastEnumeration) {
        let ids = assets.photoObjects.map(\.localIdentifier)
        append(ChangeRequest(op: "addAssets", target: target, ids: ids))
        order = order.map { current in current + ids.filter { !current.contains($0) } }
    }

    /// Inserts the assets so that each is at its index of the order the request counts in.
    public func insertAssets(_ assets: NSFastEnumeration, at indexes: IndexSet) {
        let ids = assets.photoObjects.map(\.localIdentifier)
        guard let shown = currentOrder() else { return }
        var after = shown
        for (index, id) in zip(indexes, ids) { after.insert(id, at: min(index, after.count)) }
        // In the album's own order, each new asset goes before the asset that follows it in the order shown.
        let album = placing(ids, as: after, in: albumOrder().filter { !ids.contains($0) })
        append(ChangeRequest(op: "insertAssets", target: target, ids: ids, indexes: ids.map { album.firstIndex(of: $0)! }))
        order = after
    }

    public func removeAssets(_ assets: NSFastEnumeration) {
        let ids = assets.photoObjects.map(\.localIdentifier)
        append(ChangeRequest(op: "removeAssets", target: target, ids: ids))
        order = order.map { $0.filter { !ids.contains($0) } }
    }

    /// Removes the assets at `indexes` of the order the request counts in.
    public func removeAssets(at indexes: IndexSet) {
        guard let shown = currentOrder() else { return }
        let ids = indexes.filter(shown.indices.contains).map { shown[$0] }
        append(ChangeRequest(op: "removeAssets", target: target, ids: ids))
        order = shown.filter { !ids.contains($0) }
    }

    /// Moves the assets at `indexes` so that they start at `toIndex` of the order after the move.
    public func moveAssets(at fromIndexes: IndexSet, to toIndex: Int) {
        guard let shown = currentOrder() else { return }
        let moved = fromIndexes.filter(shown.indices.contains).map { shown[$0] }
        var after = shown.enumerated().filter { !fromIndexes.contains($0.offset) }.map(\.element)
        after.insert(contentsOf: moved, at: min(toIndex, after.count))
        // The same move in the album's own order: the moved assets, together, before the asset that follows them.
        let album = albumOrder()
        let rest = album.filter { !moved.contains($0) }
        let start = placing(moved, as: after, in: rest).firstIndex { moved.contains($0) } ?? rest.count
        append(ChangeRequest(op: "moveAssets", target: target, indexes: moved.compactMap { album.firstIndex(of: $0) },
                             toIndex: start))
        order = after
    }

    /// `album` with each of `placed` put before the first asset that follows it in `shown` and is in `album` (at the
    /// end when none does).
    private func placing(_ placed: [String], as shown: [String], in album: [String]) -> [String] {
        var result = album
        for id in placed {
            let position = shown.firstIndex(of: id) ?? shown.count
            let anchor = shown.dropFirst(position + 1).first { result.contains($0) && !placed.contains($0) }
            result.insert(id, at: anchor.flatMap { result.firstIndex(of: $0) } ?? result.count)
        }
        return result
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

    /// The order index-based changes count in, read from the daemon the first time.
    private func currentOrder() -> [String]? {
        if let order { return order }
        order = albumOrder()
        return order
    }

    /// The album's order as a default fetch shows it, which the daemon's indexes count in.
    private func albumOrder() -> [String] {
        let album = target
        return (try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.fetchAllAssets(matching: AssetQuery(collection: album)).assets.map(\.id)
        }) ?? []
    }
}

/// PhotoKit's `PHCollectionListChangeRequest`: creates, fills or deletes folders inside a change block.
public final class PHCollectionListChangeRequest: PHChangeRequest, @unchecked Sendable {
    let target: String
    private var currentTitle: String
    /// The folder's children as the request counts them, read when first needed.
    private var children: [String]?

    /// The placeholder of the folder this request creates; for a request that changes a folder, one that names it.
    public let placeholderForCreatedCollectionList: PHObjectPlaceholder

    private init(target: String, title: String, placeholder: PHObjectPlaceholder, children: [String]?, name: String) {
        self.target = target
        currentTitle = title
        placeholderForCreatedCollectionList = placeholder
        self.children = children
        super.init(name)
    }

    /// Creates a folder at the top level.
    public class func creationRequestForCollectionList(withTitle title: String) -> PHCollectionListChangeRequest {
        let placeholder = ChangeBlock.current?.makePlaceholder("folder")
            ?? PHObjectPlaceholder(placeholder: "@folder", identifier: UUID().uuidString.lowercased())
        let request = PHCollectionListChangeRequest(target: placeholder.localIdentifier, title: title, placeholder: placeholder,
                                                    children: [], name: "creationRequestForCollectionList(withTitle:)")
        request.append(ChangeRequest(op: "createFolder", placeholder: placeholder.placeholder, title: title,
                                     id: placeholder.chosenIdentifier))
        return request
    }

    /// A request to change a folder.
    public convenience init?(for collectionList: PHCollectionList) {
        self.init(collectionList, children: nil, name: "PHCollectionListChangeRequest(for:)")
    }

    /// As `init(for:)`; `childCollections` is the folder's content, which index-based changes count in.
    public convenience init?(for collectionList: PHCollectionList, childCollections: PHFetchResult<PHCollection>) {
        self.init(collectionList, children: Array(childCollections.identifiers),
                  name: "PHCollectionListChangeRequest(for:childCollections:)")
    }

    private convenience init?(_ folder: PHCollectionList, children: [String]?, name: String) {
        guard !folder.isTransient else { return nil }
        let placeholder = PHObjectPlaceholder(placeholder: folder.localIdentifier, identifier: folder.localIdentifier,
                                              isChosen: false)
        self.init(target: folder.localIdentifier, title: folder.localizedTitle ?? "", placeholder: placeholder,
                  children: children, name: name)
    }

    public var title: String {
        get { currentTitle }
        set {
            currentTitle = newValue
            append(ChangeRequest(op: "updateCollection", target: target, title: newValue))
        }
    }

    public func addChildCollections(_ collections: NSFastEnumeration) {
        let ids = collections.photoObjects.map(\.localIdentifier)
        append(ChangeRequest(op: "addChildCollections", target: target, ids: ids))
        children = children.map { current in current + ids.filter { !current.contains($0) } }
    }

    /// Inserts the collections so that each is at its index of the folder's new content.
    public func insertChildCollections(_ collections: NSFastEnumeration, at indexes: IndexSet) {
        let ids = collections.photoObjects.map(\.localIdentifier)
        guard var current = currentChildren() else { return }
        append(ChangeRequest(op: "addChildCollections", target: target, ids: ids))
        current += ids
        // Added last, then each moved to its index, in ascending order.
        for (index, id) in zip(indexes, ids) {
            guard let from = current.firstIndex(of: id) else { continue }
            current.remove(at: from)
            let to = min(index, current.count)
            current.insert(id, at: to)
            append(ChangeRequest(op: "moveChildCollections", target: target, indexes: [from], toIndex: to))
        }
        children = current
    }

    public func removeChildCollections(_ collections: NSFastEnumeration) {
        let ids = collections.photoObjects.map(\.localIdentifier)
        append(ChangeRequest(op: "removeChildCollections", target: target, ids: ids))
        children = children.map { $0.filter { !ids.contains($0) } }
    }

    /// Removes the collections at `indexes` of the folder's content.
    public func removeChildCollections(at indexes: IndexSet) {
        guard let current = currentChildren() else { return }
        let ids = indexes.filter(current.indices.contains).map { current[$0] }
        append(ChangeRequest(op: "removeChildCollections", target: target, ids: ids))
        children = current.filter { !ids.contains($0) }
    }

    /// Replaces the collections at `indexes` with `collections`, each at its index.
    public func replaceChildCollections(at indexes: IndexSet, withChildCollections collections: NSFastEnumeration) {
        removeChildCollections(at: indexes)
        insertChildCollections(collections, at: indexes)
    }

    public func moveChildCollections(at indexes: IndexSet, to toIndex: Int) {
        append(ChangeRequest(op: "moveChildCollections", target: target, indexes: Array(indexes), toIndex: toIndex))
        guard let current = children else { return }
        let moved = indexes.filter(current.indices.contains).map { current[$0] }
        var rest = current.enumerated().filter { !indexes.contains($0.offset) }.map(\.element)
        rest.insert(contentsOf: moved, at: min(toIndex, rest.count))
        children = rest
    }

    /// Deletes folders, with everything in them; their assets stay in the library.
    public class func deleteCollectionLists(_ collectionLists: NSFastEnumeration) {
        ChangeBlock.required(for: "PHCollectionListChangeRequest.deleteCollectionLists(_:)")?
            .append(ChangeRequest(op: "deleteCollections", ids: collectionLists.photoObjects.map(\.localIdentifier)))
    }

    /// The folder's children as the request counts them, read from the daemon the first time.
    private func currentChildren() -> [String]? {
        if let children { return children }
        let folder = target
        children = (try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.fetchAllCollections(matching: CollectionQuery(parent: folder)).collections.map(\.id)
        }) ?? []
        return children
    }
}
