@_exported import enum PhotolibProtocol.SourceMode

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
