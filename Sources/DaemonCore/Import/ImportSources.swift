import Foundation
import Glibc
import LibraryStore
import Logging
import NIOPosix
import PhotolibConfig
import PhotolibProtocol
import ServiceLifecycle

/// Why a source cannot be added or removed.
package struct SourceError: Error, CustomStringConvertible {
    package enum Kind { case invalid, notFound }
    package var kind: Kind
    package var path: String
    package var reason: String

    package init(kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    package var description: String { "\(path): \(reason)" }
}

/// The import sources (the config file's and those added at run time), each followed by a `SourceWatcher`,
/// and the workers that ingest what they find. Watchers and workers run in the service's own task group.
package actor ImportSources: Service {
    private struct Running {
        var watcher: SourceWatcher
        /// Finishing it stops the watcher.
        var stop: AsyncStream<Never>.Continuation
        var isConfigured: Bool
    }

    /// How many files are prepared at once.
    static let workerCount = 4

    private var configured: [SourceConfiguration]
    /// The config file the configured sources come from; nil when they are the built-in default.
    private var configurationFile: String?
    private let queue: IngestQueue
    private let worker: IngestWorker
    private let retry: ImportRetry
    private let database: LibraryDatabase
    private let threadPool: NIOThreadPool
    private let excluded: Set<String>
    private let sidecars: SidecarKeeper
    private let logger: Logger
    private var running: [String: Running] = [:]
    private var order: [String] = []
    /// Watchers to start, taken by `run`'s task group.
    private let (starts, startSink) = AsyncStream.makeStream(of: (SourceWatcher, AsyncStream<Never>).self)

    package init(
        configured: [SourceConfiguration], configurationFile: String?, ingest: IngestPipeline, libraryPath: String,
        excluded: Set<String>, logger: Logger
    ) {
        self.configured = configured
        self.configurationFile = configurationFile
        queue = IngestQueue(statistics: ingest.statistics)
        retry = ImportRetry(queue: queue, libraryPath: libraryPath, logger: logger)
        worker = IngestWorker(queue: queue, ingest: ingest, retry: retry, logger: logger)
        self.database = ingest.database
        sidecars = ingest.sidecars
        threadPool = ingest.importer.threadPool
        self.excluded = excluded
        self.logger = logger
    }

    /// Starts every source and the workers; stops them at graceful shutdown.
    package func run() async throws {
        for source in configured { start(source, isConfigured: true) }
        for stored in try await database.sourceFiles.storedSources() {
            guard let mode = SourceMode(rawValue: stored.mode), running[stored.path] == nil else { continue }
            start(SourceConfiguration(path: stored.path, mode: mode, recursive: stored.recursive), isConfigured: false)
        }
        await withDiscardingTaskGroup { group in
            for _ in 0..<Self.workerCount { group.addTask { [worker] in await worker.run() } }
            let retrying = Task { [retry] in await retry.run() }
            defer { retrying.cancel() }
            await withGracefulShutdownHandler {
                for await (watcher, stop) in starts {
                    group.addTask { await Self.follow(watcher, until: stop) }
                }
            } onGracefulShutdown: { [startSink] in
                startSink.finish()
            }
            for source in running.values { source.stop.finish() }
            await queue.close()
        }
    }

    /// Runs `watcher` until `stop` finishes.
    private static func follow(_ watcher: SourceWatcher, until stop: AsyncStream<Never>) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await watcher.run() }
            for await _ in stop {}
            group.cancelAll()
        }
    }

    /// Follows a reloaded config file's sources: starts those it adds, stops those it drops and restarts those it
    /// changes. A source that cannot be followed is logged and left out; the others apply.
    package func reconfigure(_ sources: [SourceConfiguration], from configurationFile: String?) {
        let wanted = Dictionary(sources.map { ($0.path, $0) }) { first, _ in first }
        for path in order {
            guard let source = running[path], source.isConfigured, wanted[path] != source.watcher.source else {
                continue
            }
            stop(path)
            logger.info("source removed from the configuration", metadata: ["path": "\(path)"])
        }
        for source in sources where running[source.path] == nil {
            do {
                try validate(source)
                start(source, isConfigured: true)
                logger.info(
                    "source added from the configuration",
                    metadata: ["path": "\(source.path)", "mode": "\(source.mode.rawValue)"])
            } catch {
                logger.error("The configuration's source \(source.path) is left out: \(error.reason)")
            }
        }
        configured = sources
        self.configurationFile = configurationFile
    }

    /// Adds and starts a source, remembered across restarts.
    package func add(_ source: SourceConfiguration) async throws {
        try validate(source)
        try await database.sourceFiles.saveSource(
            StoredSource(path: source.path, mode: source.mode.rawValue, recursive: source.recursive))
        start(source, isConfigured: false)
        logger.info("source added", metadata: ["path": "\(source.path)", "mode": "\(source.mode.rawValue)"])
    }

    /// Stops and forgets a source added at run time; its assets stay in the library.
    package func remove(path: String) async throws {
        let path = Self.normalized(path)
        guard let source = running[path] else {
            throw SourceError(kind: .notFound, path: path, reason: "not an import source")
        }
        guard !source.isConfigured else {
            let reason =
                configurationFile.map { "the config file \($0) defines this source; remove it there" }
                ?? "it is the built-in drop folder, watched while photolibd runs without a config file; "
                + "a config file's sources replace it (see photolibd.conf(5))"
            throw SourceError(kind: .invalid, path: path, reason: reason)
        }
        stop(path)
        _ = try await database.sourceFiles.deleteSource(path: path)
        logger.info("source removed", metadata: ["path": "\(path)"])
    }

    /// Every source with what it is doing and how many assets came from it.
    package func list() async throws -> [ImportSource] {
        let counts = try await database.sourceFiles.sourceAssetCounts()
        return order.compactMap { path in
            guard let source = running[path] else { return nil }
            let activity = source.watcher.activity
            let config = source.watcher.source
            return ImportSource(
                path: path, mode: config.mode, recursive: config.recursive, watching: activity == .watching,
                assetCount: counts[path]?.assets ?? 0, error: activity.problem, state: activity.name,
                offlineAssetCount: counts[path]?.offline ?? 0, isConfigured: source.isConfigured)
        }
    }

    /// Updates the source counts of `Status`.
    package func refreshStatistics() {
        let activities = order.compactMap { path in running[path].map { (path, $0.watcher.activity) } }
        queue.statistics.update { snapshot in
            snapshot.sources = activities.count
            snapshot.pollingSources = activities.filter { $0.1.name == "polling" }.map(\.0)
            snapshot.offlineSources = activities.filter { $0.1.name == "offline" }.map(\.0)
        }
    }

    private func start(_ source: SourceConfiguration, isConfigured: Bool) {
        let watcher = SourceWatcher(
            source: source, queue: queue, database: database, threadPool: threadPool,
            excluded: excluded, sidecars: sidecars, logger: logger)
        let (stop, stopSink) = AsyncStream.makeStream(of: Never.self)
        running[source.path] = Running(watcher: watcher, stop: stopSink, isConfigured: isConfigured)
        order.append(source.path)
        startSink.yield((watcher, stop))
    }

    private func stop(_ path: String) {
        running.removeValue(forKey: path)?.stop.finish()
        order.removeAll { $0 == path }
    }

    private func validate(_ source: SourceConfiguration) throws(SourceError) {
        let path = source.path
        guard path.hasPrefix("/"), path == Self.normalized(path) else {
            throw SourceError(
                kind: .invalid, path: path, reason: "give an absolute path without '.', '..' or a trailing '/'")
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw SourceError(kind: .invalid, path: path, reason: "not an existing folder")
        }
        if let existing = running[path] {
            throw SourceError(
                kind: .invalid, path: path, reason: "it is a source already (\(existing.watcher.source.mode.rawValue))")
        }
        func role(of other: String) -> String {
            running[other] != nil ? "a source already" : "where photolibd keeps the library or its cache"
        }
        for other in Array(running.keys) + excluded {
            if other == path { throw SourceError(kind: .invalid, path: path, reason: "it is \(role(of: other))") }
            if path.hasPrefix(other + "/") {
                throw SourceError(kind: .invalid, path: path, reason: "it is inside \(other), \(role(of: other))")
            }
            if other.hasPrefix(path + "/") {
                throw SourceError(kind: .invalid, path: path, reason: "it holds \(other), \(role(of: other))")
            }
        }
    }

    /// `path` without "." and ".." components, repeated or trailing slashes.
    static func normalized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
