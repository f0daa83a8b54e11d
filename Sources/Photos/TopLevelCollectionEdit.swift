import Foundation
import PhotoLibrary

/// What `PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections:)` changes: the top level of the
/// user's albums and folders. The library has no top-level collection list to name in a change: a collection is at the
/// top level when no folder holds it, so adding one to the top level takes it out of its folder, and the top level is
/// ordered newest first, which index-based moves cannot change.
struct TopLevelCollectionEdit {
    /// The top level as the program showed it (the fetch result the request was made with), as the request changes it.
    var members: [String]

    /// The changes that bring `ids` to the top level: each out of the folder that holds it when this change runs
    /// (after the block's earlier changes); nothing for those at the top level already.
    mutating func add(_ ids: [String], in block: ChangeBlock?) -> [ChangeRequest] {
        members += ids.filter { !members.contains($0) }
        let parents = Self.folders(holding: ids, in: block)
        return ids.compactMap { id in
            parents[id].map { ChangeRequest(op: "removeChildCollections", target: $0, ids: [id]) }
        }
    }

    /// Takes `ids` off the top level as the program counts it. Nothing to send: in the library a collection that no
    /// folder holds is at the top level, so one leaves it when a folder of the block takes it in (before or after this).
    mutating func remove(_ ids: [String]) {
        members.removeAll(where: ids.contains)
    }

    /// The ids at `indexes` of the top level as the program counts it.
    func ids(at indexes: IndexSet) -> [String] {
        indexes.filter(members.indices.contains).map { members[$0] }
    }

    /// The folder holding each of `ids` that one holds, as the change block leaves it so far: its own changes first,
    /// then the library's.
    static func folders(holding ids: [String], in block: ChangeBlock?) -> [String: String] {
        var known: [String: String?] = [:]
        for change in block?.changes ?? [] {
            guard case .ready(let request) = change else { continue }
            switch request.op {
            case "createAlbum", "createFolder":
                if let id = request.id { known[id] = .some(request.parent) }
            case "addChildCollections":
                for id in request.ids ?? [] { known[id] = .some(request.target) }
            case "removeChildCollections":
                for id in request.ids ?? [] { known[id] = .some(nil) }
            default:
                continue
            }
        }
        let unknown = ids.filter { known[$0] == nil }
        let library =
            unknown.isEmpty
            ? []
            : (try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
                try await library.fetchAllCollections(matching: CollectionQuery(ids: unknown)).collections
            }) ?? []
        for collection in library { known[collection.id] = .some(collection.parentId) }
        return known.compactMapValues { $0 }.filter { ids.contains($0.key) }
    }
}
