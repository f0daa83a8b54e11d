/// How the daemon treats the files it finds in an import folder.
public enum SourceMode: String, Sendable, Codable, CaseIterable {
    /// A drop folder: files are moved into the library's store.
    case move
    /// Files are copied into the library's store and left where they are.
    case copy
    /// Files are indexed in place; the library refers to them by path.
    case reference
}

/// One import folder the daemon watches.
public struct SourceConfiguration: Sendable, Hashable {
    /// The folder's absolute path.
    public var path: String
    /// What happens to the files found there.
    public var mode: SourceMode
    /// Whether subfolders are watched too.
    public var recursive: Bool

    /// Creates a source; sources are recursive unless told otherwise.
    public init(path: String, mode: SourceMode, recursive: Bool = true) {
        self.path = path
        self.mode = mode
        self.recursive = recursive
    }
}
