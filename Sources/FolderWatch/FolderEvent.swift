import Glibc

/// Something that happened in a watched folder tree. Paths are absolute.
public enum FolderEvent: Sendable, Hashable {
    /// A file was closed after writing, or moved in from outside the tree: its content is complete.
    case fileCompleted(path: String)
    /// A file was renamed or moved inside the tree.
    case fileMoved(from: String, to: String)
    /// A file was deleted, or moved out of the tree.
    case fileRemoved(path: String)
    /// A folder was created or moved in; files already in it have no events of their own.
    case directoryAppeared(path: String)
    /// A folder was renamed or moved inside the tree, with everything in it.
    case directoryMoved(from: String, to: String)
    /// A folder was deleted or moved out of the tree, with everything in it.
    case directoryRemoved(path: String)
    /// A name that is not valid UTF-8 appeared in `directory` (shown with replacement characters).
    case unreadableName(directory: String, name: String)
    /// The kernel dropped events (`IN_Q_OVERFLOW`): the tree must be rescanned.
    case overflow
    /// The kernel's watch limit was reached: parts of the tree are not watched and must be polled.
    case watchLimitReached
    /// The root folder was deleted, moved away or unmounted; the watch has ended.
    case rootVanished
}

/// Why a folder cannot be watched or scanned.
public enum FolderWatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The root is missing or not a folder.
    case rootMissing(path: String)
    /// The kernel's inotify watch limit (`fs.inotify.max_user_watches`) is reached.
    case watchLimitReached(path: String, watches: Int)
    /// Another system call failed.
    case systemError(operation: String, path: String, errno: Int32)

    public var description: String {
        switch self {
        case .rootMissing(let path): "\(path) is missing or not a folder"
        case .watchLimitReached(let path, let watches):
            "the inotify watch limit was reached after \(watches) folders while watching \(path); "
                + "raise fs.inotify.max_user_watches to watch it instead of polling"
        case .systemError(let operation, let path, let code):
            "\(operation) \(path) failed: \(String(cString: strerror(code)))"
        }
    }
}
