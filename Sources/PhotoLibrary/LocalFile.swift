#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A file this process may open itself, read where it lies.
struct LocalFile {
    let descriptor: Int32
    let size: Int

    /// Opens the regular file at `path` for reading; nil when this process cannot (errno says why).
    init?(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.size = Int(info.st_size)
    }

    func close() {
        Glibc.close(descriptor)
    }

    /// Up to `count` bytes from `offset`; fewer only at the end of the file.
    func read(at offset: Int, count: Int) throws(PhotoLibraryError) -> Data {
        var data = Data(count: count)
        var filled = 0
        let failure: Int32? = data.withUnsafeMutableBytes { buffer in
            while filled < count {
                let read = pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
                if read < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if read == 0 { break }
                filled += read
            }
            return nil
        }
        if let failure { throw PhotoLibraryError(code: .connectionFailed, message: "reading failed: \(String(cString: strerror(failure)))") }
        return filled == count ? data : data.prefix(filled)
    }

    /// Writes all of `data` to `output`.
    static func write(_ data: Data, to output: Int32, destination: String) throws(PhotoLibraryError) {
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let count = Glibc.write(output, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return nil
        }
        if let failure { throw .cannotWrite(destination, errno: failure) }
    }
}
