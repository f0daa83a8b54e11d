import LibraryStore
import Logging

/// Makes imports durable after their change is published, then settles their files.
///
/// A file committed on its own (from a watched folder or `ImportFiles`) is committed before its store copy is
/// synced, and without syncing the commit: observers hear of it without waiting for the disk. Here, in batches, the
/// copies and their folders are synced, then a synced write forgets them (`UnsyncedCopyRecords.forgetSynced`; SQLite syncs its log
/// in order, so the imports' commits are durable with it), and only then are the files settled: temporary names
/// dropped, moved sources removed. Until then a moved source stays in its drop folder, so a crash of the machine
/// loses no file: at the next start `recoverUnsyncedCopies` writes again, from its source, a copy whose content did
/// not reach the disk, and an import whose commit did not is made again from the source.
package actor StoreSync {
    private struct Committed {
        var file: PreparedFile
        var outcome: IngestOutcome
        var logger: Logger
    }

    private let importer: Importer
    private let database: LibraryDatabase
    private var waiting: [Committed] = []
    private var isSyncing = false
    /// Files handed over and files settled since start: a file's number is the count handed over with it.
    private var handedCount = 0
    private var settledCount = 0
    private var waiters: [(number: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(importer: Importer, database: LibraryDatabase) {
        self.importer = importer
        self.database = database
    }

    /// Settles a committed `file` once its copy and its commit are synced.
    func settleOnceSynced(_ file: PreparedFile, outcome: IngestOutcome, logger: Logger) {
        var file = file
        file.firstRendition = nil
        waiting.append(Committed(file: file, outcome: outcome, logger: logger))
        handedCount += 1
        guard !isSyncing else { return }
        isSyncing = true
        Task { await syncWaitingFiles() }
    }

    /// Returns once every file handed over so far is synced and settled.
    func waitUntilSettled() async {
        let number = handedCount
        guard settledCount < number else { return }
        await withCheckedContinuation { waiters.append((number, $0)) }
    }

    /// Syncs what waits, batch after batch (the files that came while a batch was synced make the next).
    private func syncWaitingFiles() async {
        while !waiting.isEmpty {
            let batch = waiting
            waiting = []
            await sync(batch)
            settledCount += batch.count
            let (ready, later) = (
                waiters.filter { $0.number <= settledCount }, waiters.filter { $0.number > settledCount }
            )
            waiters = later
            for waiter in ready { waiter.continuation.resume() }
        }
        isSyncing = false
    }

    private nonisolated func sync(_ batch: [Committed]) async {
        let copies = batch.filter(\.outcome.usesFile).compactMap(\.file.staged?.storedPath)
        do {
            try await importer.threadPool.runIfActive { [importer] in try importer.fileStore.sync(copies) }
            try await database.unsyncedCopies.forgetSynced(copies)
        } catch {
            // Left as a crash would leave them: the next start checks the copies and settles the files.
            batch.first?.logger.error(
                "Imported files could not be synced; they are checked at the next start",
                metadata: ["files": "\(batch.count)", "error": "\(error)"])
            return
        }
        for committed in batch {
            await importer.finish(committed.file, outcome: committed.outcome, logger: committed.logger)
        }
    }

    /// At start, before any import: checks the copies whose sync was never confirmed (a crash of the process or the
    /// machine came first), writes again from its source one whose content is not what was imported, then syncs
    /// them all and forgets them.
    package static func recoverUnsyncedCopies(database: LibraryDatabase, importer: Importer, logger: Logger)
        async throws
    {
        let copies = try await database.unsyncedCopies.all()
        guard !copies.isEmpty else { return }
        var used: [UnsyncedCopy] = []
        for copy in copies where try await database.sourceFiles.isResourceFile(copy.storedPath) { used.append(copy) }
        let fileStore = importer.fileStore
        let restored = try await importer.threadPool.runIfActive { [used] () throws -> [UnsyncedCopy] in
            var restored: [UnsyncedCopy] = []
            for copy in used where (try? fileStore.hash(ofFileAt: copy.storedPath)) != copy.contentHash {
                let isRestored: Bool
                do {
                    isRestored = try fileStore.restore(copy.storedPath, from: copy.sourcePath, hash: copy.contentHash)
                } catch {
                    isRestored = false
                }
                if isRestored {
                    restored.append(copy)
                } else {
                    logger.error(
                        "An import's copy did not reach the disk before a crash and cannot be made again from its source",
                        metadata: ["path": "\(copy.storedPath)", "source": "\(copy.sourcePath)"])
                }
            }
            try fileStore.sync(used.map(\.storedPath))
            return restored
        }
        for copy in restored {
            logger.notice(
                "wrote again from its source a library copy a crash left incomplete",
                metadata: ["path": "\(copy.storedPath)", "source": "\(copy.sourcePath)"])
        }
        try await database.unsyncedCopies.forgetSynced(copies.map(\.storedPath))
    }
}
