import LibraryStore
import Logging
import PhotolibProtocol
import Synchronization

/// The importer's counters and recent failures, as `Import.Status` reports them.
final class ImportStatistics: Sendable {
    /// How many failures `recentFailures` keeps.
    static let keptFailures = 100

    private let state = Mutex(ImportStatus())

    var snapshot: ImportStatus { state.withLock { $0 } }

    /// Whether files found in the import sources wait for a worker.
    var hasQueuedFiles: Bool { state.withLock { $0.queued > 0 } }

    func update(_ body: (inout ImportStatus) -> Void) { state.withLock { body(&$0) } }

    /// Counts and logs a failed file.
    func recordFailure(path: String, reason: String, logger: Logger) {
        logger.warning("import failed", metadata: ["path": "\(path)", "reason": "\(reason)"])
        update {
            $0.failed += 1
            $0.lastError = "\(path): \(reason)"
            $0.recentFailures.append(FailedImport(path: path, reason: reason))
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
