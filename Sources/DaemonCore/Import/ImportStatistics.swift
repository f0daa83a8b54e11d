import Glibc
import LibraryStore
import Logging
import PhotolibProtocol
import Synchronization

/// The importer's counters and recent failures, as `Import.Status` reports them.
package final class ImportStatistics: Sendable {
    /// How many failures `recentFailures` keeps.
    static let keptFailures = 100

    private let state = Mutex(ImportStatus())
    /// Why each file a drop folder does not import stays there, by path.
    private let leftInDropFolders = Mutex([String: String]())

    package init() {}

    package var snapshot: ImportStatus { state.withLock { $0 } }

    /// Whether files found in the import sources wait for a worker.
    var hasQueuedFiles: Bool { state.withLock { $0.queued > 0 } }

    package func update(_ body: (inout ImportStatus) -> Void) { state.withLock { body(&$0) } }

    /// Counts and logs a failed file.
    package func recordFailure(path: String, reason: String, logger: Logger) {
        logger.warning("import failed", metadata: ["path": "\(path)", "reason": "\(reason)"])
        update {
            $0.failed += 1
            $0.lastError = "\(path): \(reason)"
            $0.recentFailures.append(FailedImport(path: path, reason: reason))
            if $0.recentFailures.count > Self.keptFailures { $0.recentFailures.removeFirst() }
        }
    }

    /// Keeps a file a drop folder does not import, for `Status` to name while it stays there.
    func recordLeftInDropFolder(path: String, reason: String) {
        leftInDropFolders.withLock { $0[path] = reason }
    }

    /// The files drop folders did not import that are still there, sorted by path; nil when there are none.
    package func filesLeftInDropFolders() -> [FailedImport]? {
        let left = leftInDropFolders.withLock { files in
            files = files.filter { path, _ in access(path, F_OK) == 0 }
            return files
        }
        return left.isEmpty ? nil : left.sorted { $0.key < $1.key }.map { FailedImport(path: $0.key, reason: $0.value) }
    }

    /// Counts a committed file that added content to the library.
    func recordIngest(_ outcome: IngestOutcome) {
        switch outcome {
        case .inserted, .joined: update { $0.imported += 1 }
        case .replaced, .relinked, .unchanged, .duplicate: break
        }
    }
}
