#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// The server could not take its socket path.
public enum VarlinkServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another server answers on the socket.
    case socketInUse(path: String)
    /// Setting the socket file's permissions failed with `errno`.
    case cannotSetPermissions(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .socketInUse(let path):
            "another server already answers on \(path); stop it, or give this one another socket"
        case .cannotSetPermissions(let path, let errno):
            "cannot set the permissions of \(path): \(String(cString: strerror(errno)))"
        }
    }
}

/// The file system side of a listening Unix socket: its directory, permissions and removal.
struct UnixSocketFile {
    let path: String

    /// Creates the directory that holds the socket, with its parents, if missing: searchable by others (0711, not
    /// listable) when the socket's `permissions` let others connect, else the owner's alone (0700).
    func createParentDirectory(forSocketPermissions permissions: UInt16) throws {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, permissions & 0o007 == 0 ? 0o700 : 0o711)
    }

    func setPermissions(_ permissions: UInt16) throws(VarlinkServerError) {
        guard chmod(path, mode_t(permissions)) == 0 else {
            throw .cannotSetPermissions(path: path, errno: errno)
        }
    }

    /// The device and inode of the file now at `path`; `nil` when there is none.
    func identity() -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Removes the socket file if it is still the one identified by `identity`, not a successor's.
    func remove(ifStill identity: FileIdentity?) {
        if let identity, self.identity() == identity {
            unlink(path)
        }
    }

    struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64
    }
}
