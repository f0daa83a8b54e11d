import FolderWatch
import LibraryStore
import Logging
import NIOPosix
import PhotolibConfig
import Synchronization

/// What a source is doing, as `ListSources` reports it.
enum SourceActivity: Sendable, Hashable {
    case starting
    /// Comparing the folder with the library (at start, after an overflow, or when it came back).
    case reconciling
    /// Following inotify events.
    case watching
    /// Scanning every few seconds, because the kernel's watch limit was reached.
    case polling(reason: String)
    /// The folder is missing or unmounted; its assets are offline, not deleted.
    case offline(reason: String)

    var name: String {
        switch self {
        case .starting: "starting"
        case .reconciling: "reconciling"
        case .watching: "watching"
        case .polling: "polling"
        case .offline: "offline"
        }
    }

    var problem: String? {
        switch self {
        case .polling(let reason), .offline(let reason): reason
        case .starting, .reconciling, .watching: nil
        }
    }
}

/// Keeps one import source in the library: has it reconciled, then follows its inotify events (or polls it), and
/// waits for its folder to come back when it goes.
final class SourceWatcher: Sendable {
    let source: SourceConfiguration
    private let reconciler: SourceReconciler
    private let excluded: Set<String>
    private let logger: Logger
    private let activityState = Mutex(SourceActivity.starting)

    /// The shortest pause between scans of a polled source, and the pause between checks for a missing folder.
    static let pollInterval: Duration = .seconds(2)
    /// The shortest time a polled source waits before it tries to watch again (the limit may have been raised, or
    /// folders removed).
    static let rewatchInterval: Duration = .seconds(10)

    init(
        source: SourceConfiguration, queue: IngestQueue, database: LibraryDatabase, threadPool: NIOThreadPool,
        excluded: Set<String>, sidecars: SidecarKeeper, logger: Logger
    ) {
        self.source = source
        self.excluded = excluded
        var logger = logger
        logger[metadataKey: "source"] = "\(source.path)"
        self.logger = logger
        reconciler = SourceReconciler(
            source: source, queue: queue, database: database, threadPool: threadPool, excluded: excluded,
            sidecars: sidecars, logger: logger)
    }

    var activity: SourceActivity { activityState.withLock { $0 } }

    /// Runs until the task is cancelled.
    func run() async {
        var isOffline = false
        while !Task.isCancelled {
            do {
                let watcher = try FolderWatcher(root: source.path, recursive: source.recursive, excluding: excluded)
                defer { watcher.stop() }
                if case .polling = activity { logger.notice("watching the source again instead of polling it") }
                guard try await reconcile() else {
                    isOffline = try await goOffline(
                        "the folder is empty where the library knows files: not mounted?", isOffline)
                    try await Task.sleep(for: Self.pollInterval)
                    continue
                }
                isOffline = false
                setActivity(.watching)
                try await follow(watcher.events)
                isOffline = try await goOffline("the folder is missing or unmounted", isOffline)
            } catch let error as FolderWatchError {
                switch error {
                case .watchLimitReached:
                    await poll(reason: error.description)
                case .rootMissing:
                    isOffline = (try? await goOffline("the folder is missing or unmounted", isOffline)) ?? isOffline
                    try? await Task.sleep(for: Self.pollInterval)
                case .systemError:
                    logger.error("cannot watch the source", metadata: ["error": "\(error)"])
                    await poll(reason: error.description)
                }
            } catch is CancellationError {
                return
            } catch {
                logger.error("source watcher failed; retrying", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: Self.pollInterval)
            }
        }
    }

    private func setActivity(_ activity: SourceActivity) {
        activityState.withLock { $0 = activity }
    }

    /// Has the source reconciled, saying so in its activity; false when the folder looks unmounted.
    private func reconcile() async throws -> Bool {
        setActivity(.reconciling)
        return try await reconciler.reconcile()
    }

    /// Marks the source offline (once) and says why: its assets first, so that whoever sees the source offline
    /// finds them offline too.
    private func goOffline(_ reason: String, _ wasOffline: Bool) async throws -> Bool {
        if !wasOffline {
            logger.warning("source offline", metadata: ["reason": "\(reason)"])
            if source.mode == .reference {
                try await reconciler.database.sourceFiles.setOffline(true, sourceRoot: source.path)
            }
        }
        setActivity(.offline(reason: reason))
        return true
    }

    /// Scans the source every few seconds instead of watching it, then returns so that watching is tried again.
    private func poll(reason: String) async {
        if case .polling = activity {
        } else {
            logger.warning("polling the source instead of watching it", metadata: ["reason": "\(reason)"])
        }
        setActivity(.polling(reason: reason))
        var rewatchAt = ContinuousClock.now + Self.rewatchInterval
        while !Task.isCancelled, ContinuousClock.now < rewatchAt {
            let started = ContinuousClock.now
            do {
                _ = try await reconciler.reconcile()
            } catch {
                logger.debug("poll failed", metadata: ["error": "\(error)"])
            }
            // A tree too big to watch may take seconds to scan: keep scanning (and trying to watch) to a fifth
            // (and a tenth) of the time.
            let scan = ContinuousClock.now - started
            rewatchAt = max(rewatchAt, started + scan * 10)
            try? await Task.sleep(for: max(Self.pollInterval, scan * 4))
        }
    }

    /// Applies the tree's events until the root goes away (returns) or the watch limit is reached (throws).
    private func follow(_ events: AsyncStream<FolderEvent>) async throws {
        for await event in events {
            if reconciler.sidecars.follow(event) { continue }
            switch event {
            case .fileCompleted(let path):
                await reconciler.enqueue(path)
            case .fileMoved(let from, let to):
                if source.mode == .reference, try await reconciler.references.move(from: from, to: to) { continue }
                await reconciler.enqueue(to)
            case .fileRemoved(let path), .directoryRemoved(let path):
                if source.mode == .reference { try await reconciler.references.remove(at: [path]) }
            case .directoryAppeared(let path):
                try await reconciler.enqueueFiles(in: path)
            case .directoryMoved(let from, let to):
                if source.mode == .reference { try await reconciler.references.move(from: from, to: to) }
                try await reconciler.enqueueFiles(in: to)
            case .unreadableName(let directory, let name):
                reconciler.queue.statistics.recordFailure(
                    path: directory + "/" + name, reason: SourceReconciler.invalidNameReason, logger: logger)
            case .overflow:
                logger.warning("inotify queue overflowed; rescanning")
                _ = try await reconcile()
                setActivity(.watching)
            case .watchLimitReached:
                throw FolderWatchError.watchLimitReached(path: source.path, watches: 0)
            case .rootVanished:
                return
            }
        }
        try Task.checkCancellation()
    }
}
