import Digests
import Foundation
import Glibc
import HexEncoding

/// The rendition files below `<cache>/renditions`: where each lives, how it is written and checked.
///
/// A file is written under a temporary name in `incoming/` and renamed into place, so no file of a rendition
/// is ever partly written under its real name; it is not synced, since a damaged file is detected and remade.
struct RenditionFiles: Sendable {
    /// The cache directory.
    let cacheDirectory: String

    /// `<cache>/renditions`.
    var root: String { cacheDirectory + "/renditions" }

    var incoming: String { root + "/incoming" }

    /// The file of `key` below the root: a two-character shard directory, then a hash of the key.
    func relativePath(of key: RenditionKey, fileExtension: String) -> String {
        let digest = Digest.sha256((key.assetId + "\u{0}" + key.variant).utf8).lowercaseHex
        return "\(digest.prefix(2))/\(digest.dropFirst(2).prefix(30)).\(fileExtension)"
    }

    func path(of relativePath: String) -> String {
        root + "/" + relativePath
    }

    /// The lowercase hex SHA-256 of `bytes`.
    static func checksum(of bytes: some DataProtocol) -> String {
        Digest.sha256(bytes).lowercaseHex
    }

    /// Writes `bytes` to a temporary file, then renames it to `relativePath`, replacing any file there.
    ///
    /// - Throws: `diskFull` when the file system has no room (ENOSPC or EDQUOT), else `writeFailed`.
    func write(_ bytes: [UInt8], to relativePath: String) throws(RenditionCacheError) {
        let destination = path(of: relativePath)
        let temporary = "\(incoming)/\(UUID().uuidString)"
        var descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == ENOENT, (try? FileManager.default.createDirectory(atPath: incoming,
                                                                                    withIntermediateDirectories: true)) != nil {
            // Someone emptied the cache directory while the daemon ran: it is made again, as at start.
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw failure(errno, path: temporary) }
        var written = 0
        let outcome: Int32? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return nil
        }
        let closeFailure = close(descriptor) == 0 ? nil : errno
        if let code = outcome ?? closeFailure {
            unlink(temporary)
            throw failure(code, path: destination)
        }
        let directory = (destination as NSString).deletingLastPathComponent
        if rename(temporary, destination) != 0 {
            // The shard directory is made on first use.
            let code = errno
            guard code == ENOENT, mkdir(directory, 0o700) == 0 || errno == EEXIST, rename(temporary, destination) == 0 else {
                unlink(temporary)
                throw failure(code == ENOENT ? errno : code, path: destination)
            }
        }
    }

    /// Whether the file holds exactly `byteCount` bytes; with `checksum`, also whether they hash to it.
    func isIntact(_ relativePath: String, byteCount: Int, checksum: String?) -> Bool {
        var info = stat()
        let path = path(of: relativePath)
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == byteCount else { return false }
        guard let checksum else { return true }
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return Self.checksum(of: data) == checksum
    }

    func remove(_ relativePath: String) {
        unlink(path(of: relativePath))
    }

    /// Every file below the root except in `incoming/`, as relative paths, with its modification time.
    func allFiles() -> [(relativePath: String, modified: Double)] {
        var files: [(String, Double)] = []
        let manager = FileManager.default
        for shard in (try? manager.contentsOfDirectory(atPath: root)) ?? [] where shard != "incoming" {
            for name in (try? manager.contentsOfDirectory(atPath: root + "/" + shard)) ?? [] {
                var info = stat()
                let relative = shard + "/" + name
                guard stat(path(of: relative), &info) == 0 else { continue }
                files.append((relative, Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
            }
        }
        return files
    }

    private func failure(_ code: Int32, path: String) -> RenditionCacheError {
        code == ENOSPC || code == EDQUOT
            ? .diskFull(directory: cacheDirectory)
            : .writeFailed(path: path, reason: String(cString: strerror(code)))
    }
}

