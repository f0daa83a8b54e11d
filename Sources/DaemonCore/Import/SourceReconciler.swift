import FolderWatch
import Foundation
import LibraryStore
import Logging
import NIOPosix
import PhotoModel
import PhotolibConfig
import Synchronization
import XMPAnnotations

/// Brings the library in line with what a source's folder holds, at start-up, after an overflow of the kernel's event
/// queue, when the folder comes back and at each poll: new and changed files are queued for import, and a reference
/// source's moves and deletions go to its `ReferenceTracker`. It reads only `stat`s, never a file.
final class SourceReconciler: Sendable {
    let source: SourceConfiguration
    let queue: IngestQueue
    let database: LibraryDatabase
    let threadPool: NIOThreadPool
    let excluded: Set<String>
    let references: ReferenceTracker
    let sidecars: SourceSidecarFollower
    let logger: Logger
    /// Names already reported as unreadable, so polls do not report them again.
    private let reportedNames = Mutex(Set<String>())

    init(
        source: SourceConfiguration, queue: IngestQueue, database: LibraryDatabase, threadPool: NIOThreadPool,
        excluded: Set<String>, sidecars: SidecarKeeper, logger: Logger
    ) {
        self.source = source
        self.queue = queue
        self.database = database
        self.threadPool = threadPool
        self.excluded = excluded
        references = ReferenceTracker(source: source, database: database, sidecars: sidecars)
        self.sidecars = SourceSidecarFollower(source: source, database: database, sidecars: sidecars)
        self.logger = logger
    }

    /// Brings the library in line with the folder; false when the folder looks unmounted (empty, but files are known).
    @discardableResult
    func reconcile() async throws -> Bool {
        let started = ContinuousClock.now
        async let known = source.mode == .move ? [] : database.sourceFiles.knownFiles(inSource: source.path)
        async let remembered: [String: FileIdentity] =
            source.mode == .move ? [:] : database.sourceDuplicates.duplicateFiles(inSource: source.path)
        let found = try await scan(source.path)
        let duplicates = try await remembered
        try await sidecars.reconcile(found.sidecars)
        for name in found.unreadableNames where reportedNames.withLock({ $0.insert(name).inserted }) {
            queue.statistics.recordFailure(path: name, reason: Self.invalidNameReason, logger: logger)
        }
        let toImport: [String]
        switch source.mode {
        case .move:
            toImport = Array(found.files.keys)
        case .copy:
            var imported: [String: Set<FileIdentity>] = [:]
            for file in try await known {
                imported[file.sourcePath, default: []].insert(file.identity)
            }
            toImport = found.files.compactMap { path, identity in
                imported[path]?.contains(identity) != true && duplicates[path] != identity ? path : nil
            }
        case .reference:
            guard let changed = try await references.reconcile(found.files, known: known, duplicates: duplicates)
            else { return false }
            toImport = changed
        }
        for path in toImport { await enqueue(path) }
        // Duplicates remembered at paths where no file is now are forgotten.
        try await database.sourceDuplicates.forgetDuplicateFiles(at: duplicates.keys.filter { found.files[$0] == nil })
        logger.info(
            "reconciled",
            metadata: [
                "files": "\(found.files.count)", "queued": "\(toImport.count)",
                "seconds": "\(String(format: "%.3f", (ContinuousClock.now - started).seconds))",
            ])
        return true
    }

    static let invalidNameReason = "the file name is not valid UTF-8; rename the file to import it"

    func enqueue(_ path: String) async {
        await queue.enqueue(IngestItem(path: path, source: source))
    }

    /// Queues every media file under `folder` (one that appeared or moved in).
    func enqueueFiles(in folder: String) async throws {
        for (path, _) in try await scan(folder).files { await enqueue(path) }
    }

    /// The media files and the sidecars under `folder` (not temporary or hidden), and the names that are not valid UTF-8.
    private func scan(_ folder: String) async throws -> (
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
