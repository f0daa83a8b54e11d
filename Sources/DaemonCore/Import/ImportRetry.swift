import Glibc
import Logging

/// Files found in import sources that a passing fault kept out of the library — its disk full or read-only, an I/O
/// error — wait here and go back to the ingest queue by themselves once the fault seems gone.
///
/// Every second the library's file system is checked: whether it is mounted read-only, takes a new folder in
/// `incoming/` (the way a read-only disk shows through FUSE and network file systems) and has room for the files.
/// While it does not, nothing is tried; the second it does again, the files go back at once. A fault the check
/// cannot see (an I/O error on one file) is tried again after a pause that doubles from a second up to eight, so
/// that files wait at most a few seconds longer than the fault lasts. The fault is logged once when it starts and
/// once when an import gets through again, when `Status.lastError` is cleared too.
actor ImportRetry {
    /// The longest pause between two tries while the check sees no fault.
    static let longestPause: Duration = .seconds(8)

    private let queue: IngestQueue
    private let libraryPath: String
    private let statistics: ImportStatistics
    private let logger: Logger
    private var waiting: [String: IngestItem] = [:]
    private var isFaulted = false
    /// The `Status.lastError` this fault set, cleared once an import gets through (unless another error replaced it).
    private var faultError: String?
    /// Whether the check saw the file system refuse since the last try: its fault is then known to have cleared.
    private var sawRefusal = false
    private var pause: Duration = .seconds(1)
    private var nextTry = ContinuousClock.now
    /// Wakes `run` when the first file comes to wait.
    private let (firstWaiting, firstWaitingSink) = AsyncStream.makeStream(
        of: Void.self, bufferingPolicy: .bufferingNewest(1))

    init(queue: IngestQueue, libraryPath: String, logger: Logger) {
        self.queue = queue
        self.libraryPath = libraryPath
        statistics = queue.statistics
        self.logger = logger
    }

    /// Keeps `item` until the fault that kept it out (`reason`) seems gone.
    func wait(_ item: IngestItem, reason: String) {
        if !isFaulted {
            isFaulted = true
            pause = .seconds(1)
            logger.error(
                "Imports wait: \(reason). They start again by themselves once the library takes them",
                metadata: ["path": "\(item.path)"])
        }
        if waiting.isEmpty {
            nextTry = .now + pause
            firstWaitingSink.yield()
        }
        var kept = item
        kept.isRetry = true
        waiting[item.path] = kept
        let error = "\(item.path): \(reason) (waiting to be imported again)"
        faultError = error
        statistics.update { $0.lastError = error }
    }

    /// Called when a file that had waited is imported, or fails for reasons of its own: the fault is gone.
    func gotThrough() {
        guard isFaulted else { return }
        isFaulted = false
        let error = faultError
        faultError = nil
        statistics.update { if $0.lastError == error { $0.lastError = nil } }
        logger.notice("Imports go on: the library takes files again", metadata: ["waiting": "\(waiting.count)"])
    }

    /// Sends waiting files back to the queue when their time comes, until cancelled; idle while none wait.
    func run() async {
        for await _ in firstWaiting {
            while !waiting.isEmpty, !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                await sendBackWhenDue()
            }
        }
    }

    private func sendBackWhenDue() async {
        guard !waiting.isEmpty else { return }
        guard libraryTakesFiles(at: Array(waiting.keys)) else {
            sawRefusal = true
            return
        }
        guard sawRefusal || ContinuousClock.now >= nextTry else { return }
        sawRefusal = false
        let items = Array(waiting.values)
        waiting.removeAll()
        pause = min(pause * 2, Self.longestPause)
        for item in items { await queue.enqueue(item) }
    }

    /// Whether the library's file system takes writes (a folder can be made in `incoming/`) and has room for the
    /// files at `paths`, with a margin.
    private func libraryTakesFiles(at paths: [String]) -> Bool {
        guard let room = FileSystemRoom(holding: libraryPath), !room.isReadOnly else { return false }
        let needed = paths.reduce(Int64(1 << 20)) { total, path in
            var info = stat()
            return total + (stat(path, &info) == 0 ? Int64(info.st_size) : 0)
        }
        guard room.availableBytes >= needed else { return false }
        let probe = "\(libraryPath)/incoming/writable-\(getpid()).probe"
        guard mkdir(probe, 0o700) == 0 || errno == EEXIST else { return false }
        rmdir(probe)
        return true
    }
}
