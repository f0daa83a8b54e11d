import Glibc
import NIOPosix

/// A regular file opened for reading, and its size when opened.
package struct OpenedFile: Sendable {
    package let descriptor: Int32
    package let size: Int

    /// Opens `path` on the file-work pool; nil when it is gone, unreadable or not a regular file.
    package static func open(_ path: String, threadPool: NIOThreadPool = .singleton) async throws -> OpenedFile? {
        try await threadPool.runIfActive {
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                Glibc.close(descriptor)
                return nil
            }
            return OpenedFile(descriptor: descriptor, size: Int(info.st_size))
        }
    }

    package func close() {
        Glibc.close(descriptor)
    }
}
