import LibraryStore
import Logging
import Synchronization

/// The importer's counters and recent failures, as `Import.Status` reports them.
final class ImportStatistics: Sendable {
    /// A file that could not be imported, and why.
    struct FailedFile: Encodable, Sendable, Hashable {
        var path: String
        var reason: String
    }

    struct Snapshot: Encodable, Sendable {
        var queued = 0
        var processing = 0
        var imported = 0
        var failed = 0
        var sources = 0
        var lastError: String?
        /// The latest failures, newest last.
        var recentFailures: [FailedFile] = []
        /// Sources polled because the kernel's watch limit was reached.
        var pollingSources: [String] = []
        /// Sources whose folder is missing or unmounted.
        var offlineSources: [String] = []
    }

    /// How many failures `recentFailures` keeps.
    static let keptFailures = 100

    private let state = Mutex(Snapshot())

    var snapshot: Snapshot { state.withLock { $0 } }

    func update(_ body: (inout Snapshot) -> Void) { state.withLock { body(&$0) } }

    /// Counts and logs a failed file.
    func recordFailure(path: String, reason: String, logger: Logger) {
        logger.warning("import failed", metadata: ["path": "\(path)", "reason": "\(reason)"])
        update {
            $0.failed += 1
            $0.lastError = "\(path): \(reason)"
            $0.recentFailures.append(FailedFile(path: path, reason: reason))
            if $0.recentFailures.count > Self.keptFailures { $0.recentFailures.removeFirst() }
        }
    }

    /// Counts a committed file that added content to the library.
    func recordIngest(_ outcome: IngestOutcome) {
        switch outcome {
        case .inserted, .joined: update { $0.imported += 1 }
        case .replaced, .relinked, .unchanged, .duplicate: break
        }
    }
}
