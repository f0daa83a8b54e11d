import CompactJSON

/// What kind of object changed.
public enum ObjectKind: String, Sendable, Hashable, Codable {
    case asset, collection
}

/// How an object changed in one transaction.
public enum ObjectChangeKind: String, Sendable, Hashable, Codable {
    case inserted, changed, removed
}

/// One object touched by a committed transaction.
public struct ObjectChange: Sendable, Hashable, Codable {
    public var id: String
    public var kind: ObjectKind
    public var change: ObjectChangeKind
    /// The pixels or file changed (not just properties or memberships).
    public var contentChanged: Bool

    public init(id: String, kind: ObjectKind, change: ObjectChangeKind, contentChanged: Bool = false) {
        self.id = id
        self.kind = kind
        self.change = change
        self.contentChanged = contentChanged
    }
}

/// A committed transaction as the change log records it.
public struct CommittedChange: Sendable, Hashable {
    public var generation: Int64
    public var objects: [ObjectChange]
    /// The files referenced in place that the transaction stopped pointing at, for what keeps files about them
    /// (freedesktop.org thumbnails). Carried by the change feed only: a change read back from the history has none.
    public var referencedFilesLeft: [ReferencedFileLeft]

    public init(generation: Int64, objects: [ObjectChange], referencedFilesLeft: [ReferencedFileLeft] = []) {
        self.generation = generation
        self.objects = objects
        self.referencedFilesLeft = referencedFilesLeft
    }

    /// The generation the library had just before this change.
    public var previousGeneration: Int64 { generation - 1 }
}

/// A file referenced in place that a change stopped pointing at: it moved (its asset now points at the new path) or
/// it is gone.
public struct ReferencedFileLeft: Sendable, Hashable {
    public var path: String
    /// The asset that moved with the file; nil when the file is gone.
    public var movedAssetId: String?

    public init(path: String, movedAssetId: String?) {
        self.path = path
        self.movedAssetId = movedAssetId
    }
}

/// A library's change token: its identity plus a change-log generation, written as opaque text.
public struct ChangeToken: Sendable, Hashable, CustomStringConvertible {
    public var libraryId: String
    public var generation: Int64

    public init(libraryId: String, generation: Int64) {
        self.libraryId = libraryId
        self.generation = generation
    }

    /// Parses the text form; nil when malformed.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", !parts[1].isEmpty, let generation = Int64(parts[2]), generation >= 0
        else { return nil }
        self.init(libraryId: String(parts[1]), generation: generation)
    }

    public var description: String { "v1:\(libraryId):\(generation)" }
}

extension ObjectChange: JSONWritable, JSONReadable {
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.string(id)
        json.key("kind"); json.string(kind.rawValue)
        json.key("change"); json.string(change.rawValue)
        json.key("contentChanged"); json.bool(contentChanged)
        json.endObject()
    }

    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var id: String?, kind: ObjectKind?, change: ObjectChangeKind?, contentChanged: Bool?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "id": id = try json.readString()
            case "kind": kind = try json.read(ObjectKind.self)
            case "change": change = try json.read(ObjectChangeKind.self)
            case "contentChanged": contentChanged = try json.readBool()
            default: try json.skipValue()
            }
        }
        guard let id, let kind, let change, let contentChanged else { throw json.error("a changed object lacks one of its keys") }
        self.init(id: id, kind: kind, change: change, contentChanged: contentChanged)
    }
}
