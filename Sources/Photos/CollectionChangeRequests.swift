import Foundation
import PhotoLibrary

/// PhotoKit's `PHAssetCollectionChangeRequest`: creates, renames, fills or deletes albums inside a change block.
public final class PHAssetCollectionChangeRequest: PHChangeRequest, @unchecked Sendable {
    // @unchecked: used inside its change block only, on the thread running the block (as in PhotoKit).
    /// The album's members are its assets in the order index-based changes count in: the fetch result the request
    /// was made with (`init(for:assets:)`), else the album's own order, read when first needed.
    private var edit: CollectionEdit

    /// The placeholder of the album this request creates; for a request that changes an album, one that names it.
    public let placeholderForCreatedAssetCollection: PHObjectPlaceholder

    private init(_ edit: CollectionEdit, placeholder: PHObjectPlaceholder, name: String) {
        self.edit = edit
        placeholderForCreatedAssetCollection = placeholder
        super.init(name)
    }

    /// Creates an album at the top level.
    public class func creationRequestForAssetCollection(withTitle title: String) -> PHAssetCollectionChangeRequest {
        let placeholder = CollectionEdit.creationPlaceholder("album")
        let request = PHAssetCollectionChangeRequest(
            CollectionEdit(target: placeholder.localIdentifier, title: title, members: []), placeholder: placeholder,
            name: "creationRequestForAssetCollection(withTitle:)")
        request.append(CollectionEdit.creation("createAlbum", of: placeholder, title: title))
        return request
    }

    /// A request to change an album; nil for a smart album or moment, which are read-only.
    public convenience init?(for assetCollection: PHAssetCollection) {
        self.init(assetCollection, order: nil, name: "PHAssetCollectionChangeRequest(for:)")
    }

    /// As `init(for:)`; index-based changes (`insertAssets(_:at:)`, `removeAssets(at:)`, `moveAssets(at:to:)`,
    /// `replaceAssets(at:withAssets:)`) count in `assets`, the album's content as the program shows it.
    public convenience init?(for assetCollection: PHAssetCollection, assets: PHFetchResult<PHAsset>) {
        self.init(
            assetCollection, order: Array(assets.identifiers), name: "PHAssetCollectionChangeRequest(for:assets:)")
    }

    private convenience init?(_ album: PHAssetCollection, order: [String]?, name: String) {
        guard album.assetCollectionType == .album, !album.isTransient else { return nil }
        self.init(
            CollectionEdit(target: album.localIdentifier, title: album.localizedTitle ?? "", members: order),
            placeholder: CollectionEdit.placeholder(naming: album), name: name)
    }

    public var title: String {
        get { edit.title }
        set { append(edit.rename(newValue)) }
    }

    public func addAssets(_ assets: NSFastEnumeration) {
        append(edit.add(assets.photoObjects.map(\.localIdentifier), op: "addAssets"))
    }

    /// Inserts the assets so that each is at its index of the order the request counts in.
    public func insertAssets(_ assets: NSFastEnumeration, at indexes: IndexSet) {
        let ids = assets.photoObjects.map(\.localIdentifier)
        var after = edit.currentMembers(read: Self.assets(in:))
        for (index, id) in zip(indexes, ids) { after.insert(id, at: min(index, after.count)) }
        // In the album's own order, each new asset goes before the asset that follows it in the order shown.
        let album = placing(ids, as: after, in: Self.assets(in: edit.target).filter { !ids.contains($0) })
        append(
            ChangeRequest(
                op: "insertAssets", target: edit.target, ids: ids, indexes: ids.map { album.firstIndex(of: $0)! }))
        edit.members = after
    }

    public func removeAssets(_ assets: NSFastEnumeration) {
        append(edit.remove(assets.photoObjects.map(\.localIdentifier), op: "removeAssets"))
    }

    /// Removes the assets at `indexes` of the order the request counts in.
    public func removeAssets(at indexes: IndexSet) {
        append(edit.remove(at: indexes, op: "removeAssets", read: Self.assets(in:)))
    }

    /// Moves the assets at `indexes` so that they start at `toIndex` of the order after the move.
    public func moveAssets(at fromIndexes: IndexSet, to toIndex: Int) {
        let shown = edit.currentMembers(read: Self.assets(in:))
        let moved = fromIndexes.filter(shown.indices.contains).map { shown[$0] }
        var after = shown.enumerated().filter { !fromIndexes.contains($0.offset) }.map(\.element)
        after.insert(contentsOf: moved, at: min(toIndex, after.count))
        // The same move in the album's own order: the moved assets, together, before the asset that follows them.
        let album = Self.assets(in: edit.target)
        let rest = album.filter { !moved.contains($0) }
        let start = placing(moved, as: after, in: rest).firstIndex { moved.contains($0) } ?? rest.count
        append(
            ChangeRequest(
                op: "moveAssets", target: edit.target, indexes: moved.compactMap { album.firstIndex(of: $0) },
                toIndex: start))
        edit.members = after
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
        CollectionEdit.delete(assetCollections, request: "PHAssetCollectionChangeRequest.deleteAssetCollections(_:)")
    }

    /// The assets of `album` in its order as a default fetch shows it, which the daemon's indexes count in.
    private static func assets(in album: String) -> [String] {
        (try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.fetchAllAssets(matching: AssetQuery(collection: album)).assets.map(\.id)
        }) ?? []
    }
}

/// PhotoKit's `PHCollectionListChangeRequest`: creates, fills or deletes folders inside a change block.
public final class PHCollectionListChangeRequest: PHChangeRequest, @unchecked Sendable {
    // @unchecked: used inside its change block only, on the thread running the block (as in PhotoKit).
    /// The folder's members are its children as the request counts them, read when first needed.
    private var edit: CollectionEdit
    /// Set for the request that changes the top level, which `edit` does not name.
    private var topLevel: TopLevelCollectionEdit?

    /// The placeholder of the folder this request creates; for a request that changes a folder, one that names it.
    public let placeholderForCreatedCollectionList: PHObjectPlaceholder

    private init(_ edit: CollectionEdit, placeholder: PHObjectPlaceholder, name: String) {
        self.edit = edit
        placeholderForCreatedCollectionList = placeholder
        super.init(name)
    }

    /// Creates a folder at the top level.
    public class func creationRequestForCollectionList(withTitle title: String) -> PHCollectionListChangeRequest {
        let placeholder = CollectionEdit.creationPlaceholder("folder")
        let request = PHCollectionListChangeRequest(
            CollectionEdit(target: placeholder.localIdentifier, title: title, members: []), placeholder: placeholder,
            name: "creationRequestForCollectionList(withTitle:)")
        request.append(CollectionEdit.creation("createFolder", of: placeholder, title: title))
        return request
    }

    /// A request to change the top level: albums and folders added are taken out of their folders. The top level
    /// is newest first here: index-based moves there are not applied (standard error says so).
    public convenience init?(forTopLevelCollectionListUserCollections childCollections: PHFetchResult<PHCollection>) {
        let members = Array(childCollections.identifiers)
        self.init(
            CollectionEdit(target: "", title: "", members: members),
            placeholder: PHObjectPlaceholder(placeholder: "", identifier: "", isChosen: false),
            name: "PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections:)")
        topLevel = TopLevelCollectionEdit(members: members)
    }

    /// A request to change a folder.
    public convenience init?(for collectionList: PHCollectionList) {
        self.init(collectionList, children: nil, name: "PHCollectionListChangeRequest(for:)")
    }

    /// As `init(for:)`; `childCollections` is the folder's content, which index-based changes count in.
    public convenience init?(for collectionList: PHCollectionList, childCollections: PHFetchResult<PHCollection>) {
        self.init(
            collectionList, children: Array(childCollections.identifiers),
            name: "PHCollectionListChangeRequest(for:childCollections:)")
    }

    private convenience init?(_ folder: PHCollectionList, children: [String]?, name: String) {
        guard !folder.isTransient else { return nil }
        self.init(
            CollectionEdit(target: folder.localIdentifier, title: folder.localizedTitle ?? "", members: children),
            placeholder: CollectionEdit.placeholder(naming: folder), name: name)
    }

    public var title: String {
        get { edit.title }
        set {
            guard topLevel == nil else { return ignoredAtTopLevel("title") }
            append(edit.rename(newValue))
        }
    }

    public func addChildCollections(_ collections: NSFastEnumeration) {
        if topLevel != nil {
            return topLevel!.add(collections.photoObjects.map(\.localIdentifier), in: block).forEach(append)
        }
        append(edit.add(collections.photoObjects.map(\.localIdentifier), op: "addChildCollections"))
    }

    /// Inserts the collections so that each is at its index of the folder's new content.
    public func insertChildCollections(_ collections: NSFastEnumeration, at indexes: IndexSet) {
        let ids = collections.photoObjects.map(\.localIdentifier)
        if topLevel != nil { return topLevel!.add(ids, in: block).forEach(append) }
        var current = edit.currentMembers(read: Self.children(of:))
        append(ChangeRequest(op: "addChildCollections", target: edit.target, ids: ids))
        current += ids
        // Added last, then each moved to its index, in ascending order.
        for (index, id) in zip(indexes, ids) {
            guard let from = current.firstIndex(of: id) else { continue }
            current.remove(at: from)
            let to = min(index, current.count)
            current.insert(id, at: to)
            append(ChangeRequest(op: "moveChildCollections", target: edit.target, indexes: [from], toIndex: to))
        }
        edit.members = current
    }

    public func removeChildCollections(_ collections: NSFastEnumeration) {
        if topLevel != nil { return topLevel!.remove(collections.photoObjects.map(\.localIdentifier)) }
        append(edit.remove(collections.photoObjects.map(\.localIdentifier), op: "removeChildCollections"))
    }

    /// Removes the collections at `indexes` of the folder's content.
    public func removeChildCollections(at indexes: IndexSet) {
        if let ids = topLevel?.ids(at: indexes) { return topLevel!.remove(ids) }
        append(edit.remove(at: indexes, op: "removeChildCollections", read: Self.children(of:)))
    }

    /// Replaces the collections at `indexes` with `collections`, each at its index.
    public func replaceChildCollections(at indexes: IndexSet, withChildCollections collections: NSFastEnumeration) {
        removeChildCollections(at: indexes)
        insertChildCollections(collections, at: indexes)
    }

    public func moveChildCollections(at indexes: IndexSet, to toIndex: Int) {
        guard topLevel == nil else { return ignoredAtTopLevel("moveChildCollections(at:to:)") }
        append(
            ChangeRequest(op: "moveChildCollections", target: edit.target, indexes: Array(indexes), toIndex: toIndex))
        guard let current = edit.members else { return }
        let moved = indexes.filter(current.indices.contains).map { current[$0] }
        var rest = current.enumerated().filter { !indexes.contains($0.offset) }.map(\.element)
        rest.insert(contentsOf: moved, at: min(toIndex, rest.count))
        edit.members = rest
    }

    /// Deletes folders, with everything in them; their assets stay in the library.
    public class func deleteCollectionLists(_ collectionLists: NSFastEnumeration) {
        CollectionEdit.delete(collectionLists, request: "PHCollectionListChangeRequest.deleteCollectionLists(_:)")
    }

    private func ignoredAtTopLevel(_ member: String) {
        guard block != nil else { return }
        PhotosLog.report(
            "\(member) on the top level was ignored",
            PHPhotosError(.changeNotSupported, reason: "the top level has no title and is ordered newest first"))
    }

    /// The children of `folder`, read from the daemon.
    private static func children(of folder: String) -> [String] {
        (try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.fetchAllCollections(matching: CollectionQuery(parent: folder)).collections.map(\.id)
        }) ?? []
    }
}
