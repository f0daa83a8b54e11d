import GRDB
import PhotoModel
import Synchronization

/// Publishes a recorded change once its transaction commits: advances the observed results and wakes the
/// observers, in commit order. One observer for the writer's whole life (see `LibraryWriter.init`).
final class CommitPublisher: TransactionObserver, Sendable {
    private let feed: ChangeFeed
    private let observedResults: ObservedResults
    /// The change the writer's current transaction recorded, if any.
    private let pending = Mutex<CommittedChange?>(nil)

    init(feed: ChangeFeed, observedResults: ObservedResults) {
        self.feed = feed
        self.observedResults = observedResults
    }

    func publishOnCommit(_ committed: CommittedChange) {
        pending.withLock { $0 = committed }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }

    func databaseDidChange(with event: DatabaseEvent) {}

    func databaseDidCommit(_ db: Database) {
        guard let committed = pending.withLock({ $0.take() }) else { return }
        observedResults.advance(past: committed, db: db)
        feed.publish(committed)
    }

    func databaseDidRollback(_ db: Database) {
        pending.withLock { $0 = nil }
    }
}
