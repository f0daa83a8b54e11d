import Foundation
import Glibc
import Synchronization

/// Why an upload could not be taken.
package enum UploadError: Error, Sendable, Hashable {
    /// The library's file system lacks room for it.
    case notEnoughSpace(needed: Int, available: Int)
    /// The folder could not be written.
    case failed(String)
}

/// Bytes that clients sent (`Import.Upload`) for `createAsset` changes, kept in the library's private `uploads`
/// folder until a change takes them or `lifetime` passes. An upload whose client hangs up mid-way is removed at
/// once, so nothing half-sent is ever imported; whatever a stop left behind is removed at the next start.
package final class Uploads: Sendable {
    static let lifetime = Duration.seconds(3600)
    /// Room kept free beside an upload, for the library's own writes.
    static let reserve = 16 << 20

    private struct Entry: Sendable {
        var owner: UInt32
        var filename: String?
        var size: Int
        var started: ContinuousClock.Instant
        var isComplete = false
    }

    let directory: String
    private let entries = Mutex<[String: Entry]>([:])

    /// Uploads in `directory`, which is created, and emptied of what an earlier run left.
    package init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    /// Where upload `id`'s bytes are kept.
    func path(of id: String) -> String { "\(directory)/\(id)" }

    /// Starts an upload of `size` bytes for `owner`: returns its id and a descriptor to write its bytes to, which the
    /// caller closes, then calls `complete` or `abandon`.
    package func begin(size: Int, filename: String?, owner: UInt32) throws(UploadError) -> (
        id: String, descriptor: Int32
    ) {
        removeExpired()
        if let room = FileSystemRoom(holding: directory), room.availableBytes < Int64(size + Self.reserve) {
            throw .notEnoughSpace(needed: size, available: Int(room.availableBytes))
        }
        let id = UUID().uuidString.lowercased()
        let descriptor = open(path(of: id), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .failed("cannot create the upload's file: \(String(cString: strerror(errno)))")
        }
        entries.withLock { $0[id] = Entry(owner: owner, filename: filename, size: size, started: .now) }
        return (id, descriptor)
    }

    /// Upload `id` has all its bytes: a change may take it.
    package func complete(_ id: String) {
        entries.withLock { $0[id]?.isComplete = true }
    }

    /// Removes upload `id` and its bytes.
    package func abandon(_ id: String) {
        entries.withLock { $0[id] = nil }
        unlink(path(of: id))
    }

    /// Takes `owner`'s complete upload `id` out of the record, for a change to import: its file, and the name the
    /// client gave it. The caller removes the file when done with it. Nil for an upload that is unknown, another
    /// user's, not complete, or taken already.
    package func take(_ id: String, owner: UInt32?) -> (path: String, filename: String?)? {
        entries.withLock { entries in
            guard let entry = entries[id], entry.owner == owner, entry.isComplete else { return nil }
            entries[id] = nil
            return (path(of: id), entry.filename)
        }
    }

    private func removeExpired() {
        let expired = entries.withLock { entries in
            let ids = entries.filter { $0.value.started + Self.lifetime < .now }.map(\.key)
            for id in ids { entries[id] = nil }
            return ids
        }
        for id in expired { unlink(path(of: id)) }
    }
}
