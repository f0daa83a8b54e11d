import FolderWatch
import Foundation
import LibraryStore
import NIOPosix
import PhotoModel
import XMPAnnotations

/// The reconciler: brings the library in line with what a source's folder holds, at start-up, after an overflow of
/// the kernel's event queue and when the folder comes back; in reference mode it also tracks files moved, changed
/// and removed.
extension SourceWatcher {
    /// Brings the library in line with the folder; false when the folder looks unmounted (empty, but files are known).
    @discardableResult
    func reconcile(reportingActivity: Bool = true) async throws -> Bool {
        if reportingActivity { setActivity(.reconciling) }
        let started = ContinuousClock.now
        async let known = source.mode == .move ? [] : database.knownFiles(inSource: source.path)
        async let remembered: [String: FileIdentity] =
            source.mode == .move ? [:] : database.duplicateFiles(inSource: source.path)
        let found = try await scan(source.path)
        let duplicates = try await remembered
        try await reconcileSidecars(found.sidecars)
        for name in found.unreadableNames where reportedNames.withLock({ $0.insert(name).inserted }) {
            queue.statistics.recordFailure(path: name, reason: Self.invalidNameReason, logger: logger)
        }
        var queued = 0
        switch source.mode {
        case .move:
            for (path, _) in found.files {
                await enqueue(path)
                queued += 1
            }
        case .copy:
            var imported: [String: Set<FileIdentity>] = [:]
            for file in try await known {
                imported[file.sourcePath, default: []].insert(file.identity)
            }
            for (path, identity) in found.files
            where imported[path]?.contains(identity) != true && duplicates[path] != identity {
                await enqueue(path)
                queued += 1
            }
        case .reference:
            guard let changed = try await reconcileReferences(found.files, known: known, duplicates: duplicates) else {
                return false
            }
            queued = changed
        }
        // Duplicates remembered at paths where no file is now are forgotten.
        try await database.forgetDuplicateFiles(at: duplicates.keys.filter { found.files[$0] == nil })
        logger.info(
            "reconciled",
            metadata: [
                "files": "\(found.files.count)", "queued": "\(queued)",
                "seconds": "\(String(format: "%.3f", (ContinuousClock.now - started).seconds))",
            ])
        return true
    }

    /// Reference mode: moves found by inode, deletions, changed and new files (not the unchanged `duplicates` of
    /// other assets' content); nil when the folder looks unmounted.
    private func reconcileReferences(
        _ files: [String: FileIdentity], known: [KnownFile],
        duplicates: [String: FileIdentity]
    ) async throws -> Int? {
        let known = known.filter { !$0.isOwnedByLibrary }
        let live = known.filter { !$0.isTrashed }
        guard !files.isEmpty || live.isEmpty else { return nil }
        if known.contains(where: \.isOffline) { try await database.setOffline(false, sourceRoot: source.path) }
        let knownByPath = Dictionary(known.map { ($0.sourcePath, $0) }, uniquingKeysWith: { first, _ in first })
        var missing = Dictionary(
            live.filter { files[$0.sourcePath] == nil }.map { (InodeKey($0.identity), $0) },
            uniquingKeysWith: { first, _ in first })
        var queued = 0
        for (path, identity) in files {
            if let file = knownByPath[path], file.identity == identity, !file.isTrashed { continue }
            if duplicates[path] == identity { continue }
            if knownByPath[path] == nil, let moved = missing.removeValue(forKey: InodeKey(identity)),
                moved.identity.size == identity.size, moved.identity.modificationTime == identity.modificationTime
            {
                try await moveReferencedFiles(from: moved.sourcePath, to: path)
                continue
            }
            await enqueue(path)
            queued += 1
        }
        if !missing.isEmpty {
            try await removeReferencedFiles(at: missing.values.map(\.sourcePath))
        }
        return queued
    }

    /// Points the library's referenced files at `from` (a file or folder) to `to`; returns whether any were.
    @discardableResult
    func moveReferencedFiles(from: String, to: String) async throws -> Bool {
        let moves = try await database.moveReferencedFiles(from: from, to: to, sourceRoot: source.path)
        for move in moves {
            sidecars.submit(.fileArrived(assetId: move.assetId, sourcePath: move.to, mode: .reference))
        }
        return !moves.isEmpty
    }

    /// The referenced files at `paths` (files or folders) are gone.
    func removeReferencedFiles(at paths: [String]) async throws {
        try await database.removeReferencedFiles(at: paths)
    }

    /// The media files and the sidecars under `folder` (not temporary or hidden), and the names that are not valid UTF-8.
    func scan(_ folder: String) async throws -> (
        files: [String: FileIdentity], sidecars: [String: FileIdentity],
        unreadableNames: [String]
    ) {
        try await threadPool.runIfActive { [source, excluded] in
            var files: [String: FileIdentity] = [:], sidecars: [String: FileIdentity] = [:]
            var unreadable: [String] = []
            try DirectoryScan.walk(folder, recursive: source.recursive, excluding: excluded) { item in
                switch item {
                case .file(let path, let identity):
                    let name = MediaFileKind.fileName(ofPath: path)
                    guard !MediaFileKind.isTemporaryOrHidden(name) else { break }
                    if MediaFileKind(fileName: name) != nil {
                        files[path] = identity
                    } else if SidecarNames.isSidecar(name) {
                        sidecars[path] = identity
                    }
                case .unreadableName(let directory, let name):
                    unreadable.append(directory + "/" + name)
                case .unreadableDirectory:
                    break
                }
            }
            return (files, sidecars, unreadable)
        }
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
