import FolderWatch
import LibraryStore
import PhotoModel
import PhotolibConfig

/// Keeps a reference source's files in the library as they move, change and go: a file that vanished from one path
/// and appeared at another with the same inode, size and time is the same file moved, not a new asset.
struct ReferenceTracker: Sendable {
    let source: SourceConfiguration
    let database: LibraryDatabase
    let sidecars: SidecarKeeper

    /// Moves found by inode and deletions among `files` (what a scan found) against `known` (what the library has);
    /// returns the paths of the changed and new files to import (not the unchanged `duplicates` of other assets'
    /// content), or nil when the folder looks unmounted (empty while live files are known).
    func reconcile(
        _ files: [String: FileIdentity], known: [KnownFile], duplicates: [String: FileIdentity]
    ) async throws -> [String]? {
        let known = known.filter { !$0.isOwnedByLibrary }
        let live = known.filter { !$0.isTrashed }
        guard !files.isEmpty || live.isEmpty else { return nil }
        if known.contains(where: \.isOffline) {
            try await database.sourceFiles.setOffline(false, sourceRoot: source.path)
        }
        let knownByPath = Dictionary(known.map { ($0.sourcePath, $0) }, uniquingKeysWith: { first, _ in first })
        var missing = Dictionary(
            live.filter { files[$0.sourcePath] == nil }.map { (InodeKey($0.identity), $0) },
            uniquingKeysWith: { first, _ in first })
        var toImport: [String] = []
        for (path, identity) in files {
            if let file = knownByPath[path], file.identity == identity, !file.isTrashed { continue }
            if duplicates[path] == identity { continue }
            if knownByPath[path] == nil, let moved = missing.removeValue(forKey: InodeKey(identity)),
                moved.identity.size == identity.size, moved.identity.modificationTime == identity.modificationTime
            {
                try await move(from: moved.sourcePath, to: path)
                continue
            }
            toImport.append(path)
        }
        if !missing.isEmpty {
            try await remove(at: missing.values.map(\.sourcePath))
        }
        return toImport
    }

    /// Points the library's referenced files at `from` (a file or folder) to `to`; returns whether any were.
    @discardableResult
    func move(from: String, to: String) async throws -> Bool {
        let moves = try await database.sourceFiles.moveReferencedFiles(from: from, to: to, sourceRoot: source.path)
        for move in moves {
            sidecars.submit(.fileArrived(assetId: move.assetId, sourcePath: move.to, mode: .reference))
        }
        return !moves.isEmpty
    }

    /// The referenced files at `paths` (files or folders) are gone.
    func remove(at paths: [String]) async throws {
        try await database.sourceFiles.removeReferencedFiles(at: paths)
    }
}

/// A file's device and inode: what stays the same when it is renamed or moved within one file system.
private struct InodeKey: Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ identity: FileIdentity) {
        device = identity.device
        inode = identity.inode
    }
}
