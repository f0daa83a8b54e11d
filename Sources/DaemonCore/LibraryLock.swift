import Foundation
import Glibc

/// The lock that makes one daemon the only one on a library: `photolibd.lock` in the library's folder,
/// held (flock) for the life of the process and naming the holder's pid and socket.
///
/// It is taken before anything in the library is opened, so a second daemon leaves the library
/// untouched. The kernel drops the lock when the process ends, kill -9 included.
package final class LibraryLock: Sendable {
    /// Another daemon holds the library.
    struct HeldByAnother: Error, CustomStringConvertible {
        let libraryPath: String
        /// What the holder wrote: "pid socket", or nothing if it has not yet.
        let holder: String

        var description: String {
            let parts = holder.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else {
                return "another photolibd is starting on the library \(libraryPath); stop it before starting this one"
            }
            return "another photolibd (pid \(parts[0])) already serves the library \(libraryPath) on \(parts[1]); "
                + "stop it first, or give this one another library"
        }
    }

    struct CannotLock: Error, CustomStringConvertible {
        let path: String
        let errno: Int32

        var description: String {
            "cannot lock \(path): \(String(cString: strerror(errno))); check that the library folder is writable"
        }
    }

    private let descriptor: Int32

    /// Takes the lock of the library at `libraryPath` (whose folder must exist) and records `socketPath` in it.
    package init(libraryPath: String, socketPath: String) throws {
        let path = libraryPath + "/photolibd.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CannotLock(path: path, errno: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            defer { close(descriptor) }
            guard failure == EWOULDBLOCK else { throw CannotLock(path: path, errno: failure) }
            throw HeldByAnother(libraryPath: libraryPath, holder: Self.contents(of: descriptor))
        }
        let holder = Array("\(getpid()) \(socketPath)".utf8)
        _ = ftruncate(descriptor, 0)
        _ = holder.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    private static func contents(of descriptor: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return String(decoding: bytes.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }
}
