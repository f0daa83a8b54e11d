import Glibc
import PhotoModel

/// One thing a scan found.
public enum ScannedItem: Sendable, Hashable {
    /// A regular file (symlinks, FIFOs, sockets and device nodes are never reported).
    case file(path: String, identity: FileIdentity)
    /// A name that is not valid UTF-8, shown with replacement characters.
    case unreadableName(directory: String, name: String)
    /// A subfolder that could not be opened.
    case unreadableDirectory(path: String, errno: Int32)
}

/// Walks a folder tree with `readdir` and `fstatat`, never following symbolic links.
public enum DirectoryScan {
    /// Calls `visit` for every regular file under `root` (in subfolders too when `recursive`), skipping `excluded` folders.
    public static func walk(_ root: String, recursive: Bool, excluding excluded: Set<String> = [],
                            visit: (ScannedItem) -> Void) throws(FolderWatchError) {
        let rootDescriptor = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard rootDescriptor >= 0 else { throw .rootMissing(path: root) }
        var pending: [(path: String, descriptor: Int32)] = [(root, rootDescriptor)]
        while let (directory, descriptor) = pending.popLast() {
            guard let stream = fdopendir(descriptor) else {
                close(descriptor)
                continue
            }
            defer { closedir(stream) }
            let streamDescriptor = dirfd(stream)
            while true {
                errno = 0
                guard let entry = readdir(stream) else { break }
                guard let nameBytes = entryName(entry) else { continue }
                guard let name = String(validating: nameBytes, as: UTF8.self) else {
                    visit(.unreadableName(directory: directory, name: String(decoding: nameBytes, as: UTF8.self)))
                    continue
                }
                let path = directory == "/" ? "/" + name : directory + "/" + name
                var info = stat()
                guard fstatat(streamDescriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFREG:
                    visit(.file(path: path, identity: FileIdentity(info)))
                case S_IFDIR where recursive && !excluded.contains(path):
                    let child = openat(streamDescriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    if child >= 0 {
                        pending.append((path, child))
                    } else {
                        visit(.unreadableDirectory(path: path, errno: errno))
                    }
                default:
                    continue
                }
            }
            // A root that cannot be read to its end (a file system gone under it) is not an empty folder.
            if directory == root, errno != 0 { throw .rootMissing(path: root) }
        }
    }
}

extension DirectoryScan {
    /// Calls `visit` with each folder directly inside `folder` (not following symlinks), skipping `excluded` ones.
    static func subfolders(of folder: String, excluding excluded: Set<String>, visit: (String) -> Void) throws(FolderWatchError) {
        guard let stream = opendir(folder) else { throw .systemError(operation: "opendir", path: folder, errno: errno) }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            guard entry.pointee.d_type == UInt8(DT_DIR) || entry.pointee.d_type == UInt8(DT_UNKNOWN) else { continue }
            guard let nameBytes = entryName(entry), let name = String(validating: nameBytes, as: UTF8.self) else { continue }
            let path = folder + "/" + name
            var info = stat()
            guard !excluded.contains(path), lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            visit(path)
        }
    }

    /// The entry's name bytes; nil for "." and "..".
    private static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> [UInt8]? {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
        return name == [0x2E] || name == [0x2E, 0x2E] ? nil : name
    }
}

extension FileIdentity {
    /// The identity `stat` reported.
    public init(_ info: stat) {
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                  modificationTime: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// The identity of the regular file at `path` (not following a symlink); nil when it is missing or not a regular file.
    public init?(regularFileAt path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        self.init(info)
    }
}
