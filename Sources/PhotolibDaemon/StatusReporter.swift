import DaemonCore
import LibraryStore
import Logging
import PhotolibProtocol
import ServiceLifecycle

/// Tells systemd what the daemon is doing (`STATUS=`, shown by `systemctl status`), each time it changes:
/// idle with its asset count, importing K of N, polling or offline sources.
struct StatusReporter: NamedService {
    let database: LibraryDatabase
    let statistics: ImportStatistics
    let sources: ImportSources
    let environment: [String: String]

    /// The reporter systemd asked for: nil without `NOTIFY_SOCKET`, where nobody would read the lines.
    init?(
        database: LibraryDatabase, statistics: ImportStatistics, sources: ImportSources, environment: [String: String]
    ) {
        guard environment["NOTIFY_SOCKET"]?.isEmpty == false else { return nil }
        self.database = database
        self.statistics = statistics
        self.sources = sources
        self.environment = environment
    }

    func run() async throws {
        var lastSent = ""
        var batch = ImportBatch()
        // The asset count is read again only after a commit: counting a large library every second is waste.
        var counted: (generation: Int64, assets: Int?)?
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            await sources.refreshStatistics()
            let status = statistics.snapshot
            batch.follow(status)
            let generation = database.feed.generation
            if counted?.generation != generation {
                counted = (generation, try? await database.userLibraryAssetCount())
            }
            let assets = counted?.assets
            let line = Self.describe(status, batch: batch, assets: assets)
            if line != lastSent, SystemdNotifier.notify("STATUS=" + line, environment: environment) {
                lastSent = line
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
        }
    }

    static func describe(_ status: ImportStatus, batch: ImportBatch, assets: Int?) -> String {
        var parts: [String] = []
        if let progress = batch.progress {
            parts.append("importing \(progress.done) of \(progress.total)")
        } else {
            parts.append(assets.map { "idle with \($0) asset\($0 == 1 ? "" : "s")" } ?? "idle")
        }
        if !status.pollingSources.isEmpty { parts.append("polling " + status.pollingSources.joined(separator: ", ")) }
        if !status.offlineSources.isEmpty { parts.append("offline: " + status.offlineSources.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}

/// The files of the import under way, from the moment the queue stops being empty until it empties: what
/// left the queue is done, what joined it adds to the total.
struct ImportBatch {
    private(set) var progress: (done: Int, total: Int)?

    mutating func follow(_ status: ImportStatus) {
        let waiting = status.queued + status.processing
        guard waiting > 0 else {
            progress = nil
            return
        }
        let (done, total) = progress ?? (0, waiting)
        let nowDone = max(done, total - waiting)
        progress = (nowDone, max(total, nowDone + waiting))
    }
}
