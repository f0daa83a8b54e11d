import Foundation
import PhotoLibrary

/// What the album and folder change requests share: the collection a request changes, its title, and its members (an
/// album's assets, a folder's children) in the order the request's index-based changes count in. A change returns the
/// daemon's change request, which the PhotoKit request appends to its block.
struct CollectionEdit {
    let target: String
    var title: String
    /// Nil until first needed; then as the request's changes leave them.
    var members: [String]?

    /// A placeholder for a collection the change block creates (`@album1`), or one of its own outside a block.
    static func creationPlaceholder(_ kind: String) -> PHObjectPlaceholder {
        ChangeBlock.current?.makePlaceholder(kind)
            ?? PHObjectPlaceholder(placeholder: "@\(kind)", identifier: UUID().uuidString.lowercased())
    }

    /// The change creating the collection of `placeholder`, titled `title`.
    static func creation(_ op: String, of placeholder: PHObjectPlaceholder, title: String) -> ChangeRequest {
        ChangeRequest(op: op, placeholder: placeholder.placeholder, title: title, id: placeholder.chosenIdentifier)
    }

    /// A placeholder that names an existing collection, for a request that changes it.
    static func placeholder(naming collection: PHCollection) -> PHObjectPlaceholder {
        PHObjectPlaceholder(
            placeholder: collection.localIdentifier, identifier: collection.localIdentifier, isChosen: false)
    }

    /// Deletes `collections` in the change block running; `request` names the call for the message outside of one.
    static func delete(_ collections: NSFastEnumeration, request: String) {
        ChangeBlock.required(for: request)?
            .append(ChangeRequest(op: "deleteCollections", ids: collections.photoObjects.map(\.localIdentifier)))
    }

    mutating func rename(_ newTitle: String) -> ChangeRequest {
        title = newTitle
        return ChangeRequest(op: "updateCollection", target: target, title: newTitle)
    }

    /// Adds `ids` after the members; those already there stay where they are.
    mutating func add(_ ids: [String], op: String) -> ChangeRequest {
        members = members.map { current in current + ids.filter { !current.contains($0) } }
        return ChangeRequest(op: op, target: target, ids: ids)
    }

    mutating func remove(_ ids: [String], op: String) -> ChangeRequest {
        members = members.map { $0.filter { !ids.contains($0) } }
        return ChangeRequest(op: op, target: target, ids: ids)
    }

    /// Removes the members at `indexes`.
    mutating func remove(at indexes: IndexSet, op: String, read: (String) -> [String]) -> ChangeRequest {
        let current = currentMembers(read: read)
        let ids = indexes.filter(current.indices.contains).map { current[$0] }
        members = current.filter { !ids.contains($0) }
        return ChangeRequest(op: op, target: target, ids: ids)
    }

    /// The members, read with `read` (given the collection's id) the first time.
    mutating func currentMembers(read: (String) -> [String]) -> [String] {
        if let members { return members }
        let read = read(target)
        members = read
        return read
    }
}
