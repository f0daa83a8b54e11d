import Foundation
import LibraryStore
import Logging
import PhotoModel
import PhotolibConfig

/// A file found in an import source, waiting to be ingested.
struct IngestItem: Sendable {
    var path: String
    var source: SourceConfiguration
    /// How often the file was found still changing.
    var attempts = 0
    /// Whether a passing fault kept the file out before (see `ImportRetry`).
    var isRetry = false

    var groupKey: String { MediaFileKind.groupKey(ofPath: path) }
    var role: FileRole? {
        let name = MediaFileKind.fileName(ofPath: path)
        return MediaFileKind(fileName: name)?.role(fileName: name)
    }
}

/// The files waiting to be ingested from all sources, handed to a few workers.
///
/// A path is queued once however often it is reported; files of one group (same folder and base name) are never
/// ingested at the same time, and a group's still goes before its RAW or movie, so pairs become one asset.
actor IngestQueue {
    private var order: [String] = []
    private var items: [String: IngestItem] = [:]
    private var busyGroups: Set<String> = []
    private var waiting: [CheckedContinuation<IngestItem?, Never>] = []
    private var isClosed = false
    let statistics: ImportStatistics

    init(statistics: ImportStatistics) {
        self.statistics = statistics
    }

    /// Queues a file unless it is already waiting.
    func enqueue(_ item: IngestItem) {
        guard !isClosed, items[item.path] == nil else { return }
        items[item.path] = item
        order.append(item.path)
        statistics.update { $0.queued = items.count }
        wakeWorkers()
    }

    /// The next file to ingest, waiting for one; nil once the queue is closed.
    func next() async -> IngestItem? {
        if let item = takeNext() { return item }
        if isClosed { return nil }
        return await withCheckedContinuation { waiting.append($0) }
    }

    /// Called when a worker is done with `item`.
    func finished(_ item: IngestItem) {
        busyGroups.remove(item.groupKey)
        wakeWorkers()
    }

    /// Ends the workers' loops; queued files are found again by the next start's scan.
    func close() {
        isClosed = true
        for continuation in waiting { continuation.resume(returning: nil) }
        waiting.removeAll()
    }

    private func wakeWorkers() {
        while !waiting.isEmpty, let item = takeNext() {
            waiting.removeFirst().resume(returning: item)
        }
    }

    private func takeNext() -> IngestItem? {
        guard let index = order.firstIndex(where: { !busyGroups.contains(items[$0]!.groupKey) }) else { return nil }
        var chosen = index
        let first = items[order[index]]!
        if first.role == .raw || first.role == .movie,
            let still = order[index...].firstIndex(where: {
                items[$0]!.groupKey == first.groupKey && items[$0]!.role == .still
            })
        {
            chosen = still
        }
        let item = items.removeValue(forKey: order.remove(at: chosen))!
        busyGroups.insert(item.groupKey)
        statistics.update { $0.queued = items.count }
        return item
    }
}

/// Ingests queued files: prepares, commits, settles the files, and counts and reports what happened.
struct IngestWorker: Sendable {
    let queue: IngestQueue
    let ingest: IngestPipeline
    let retry: ImportRetry
    let logger: Logger
    private var statistics: ImportStatistics { ingest.statistics }

    /// How often a file found changing is read again before it is reported.
    static let maximumAttempts = 20

    /// Takes files from the queue until it is closed.
    func run() async {
        while let item = await queue.next() {
            statistics.update { $0.processing += 1 }
            await ingest(item)
            statistics.update { $0.processing -= 1 }
            await queue.finished(item)
        }
    }

    private func ingest(_ item: IngestItem) async {
        let name = MediaFileKind.fileName(ofPath: item.path)
        guard !MediaFileKind.isTemporaryOrHidden(name), FileIdentity(regularFileAt: item.path) != nil else { return }
        guard MediaFileKind(fileName: name) != nil else {
            return leftAlone(item, reason: "not a photo, video or audio file by its name")
        }
        let file: PreparedFile
        do {
            // While files wait, the imports keep both cores: no first renditions, so no file is kept in memory.
            file = try await ingest.importer.prepare(
                sourceFile: item.path, mode: item.source.mode, sourceRoot: item.source.path,
                keepsContents: !statistics.hasQueuedFiles)
        } catch let failure as ImportFailure {
            switch failure.kind {
            case .changing where item.attempts < Self.maximumAttempts:
                requeue(item)
            case .passingFault:
                return await retry.wait(item, reason: failure.reason)
            case .failed where !Self.isReachable(item.source.path):
                // The file could not be read because its whole source went (a share, a disk): it waits for it.
                return await retry.wait(item, reason: "the source folder cannot be reached")
            case .failed, .changing:
                statistics.recordFailure(path: item.path, reason: failure.reason, logger: logger)
            case .unsupported:
                leftAlone(item, reason: failure.reason)
            case .vanished:
                logger.debug("not ingested", metadata: ["path": "\(item.path)", "reason": "\(failure.reason)"])
            }
            if item.isRetry { await retry.gotThrough() }
            return
        } catch {
            if let fault = ImportFailure.passingFault(in: error) { return await retry.wait(item, reason: fault) }
            statistics.recordFailure(path: item.path, reason: "\(error)", logger: logger)
            return
        }
        do {
            let outcome = try await ingest.commit(file, logger: logger)
            logger.debug("ingested", metadata: ["path": "\(item.path)", "outcome": "\(outcome)"])
        } catch {
            if let fault = ImportFailure.passingFault(in: error) { return await retry.wait(item, reason: fault) }
            statistics.recordFailure(
                path: item.path, reason: "the library could not record it: \(error)", logger: logger)
        }
        if item.isRetry { await retry.gotThrough() }
    }

    /// Says why a file is not ingested: out loud for a drop folder, where the file stays until someone takes it
    /// away; in debug logs for folders whose other files are none of the library's business.
    private func leftAlone(_ item: IngestItem, reason: String) {
        let metadata: Logger.Metadata = ["path": "\(item.path)", "reason": "\(reason)"]
        if item.source.mode == .move {
            logger.warning("A file in the drop folder is not imported and stays there", metadata: metadata)
            statistics.recordLeftInDropFolder(path: item.path, reason: reason)
        } else {
            logger.debug("not ingested", metadata: metadata)
        }
    }

    private static func isReachable(_ folder: String) -> Bool {
        var info = stat()
        return stat(folder, &info) == 0
    }

    /// Queues a file that was still changing again after a pause.
    private func requeue(_ item: IngestItem) {
        var again = item
        again.attempts += 1
        Task { [queue, again] in
            try? await Task.sleep(for: .milliseconds(250 * again.attempts))
            await queue.enqueue(again)
        }
    }
}
