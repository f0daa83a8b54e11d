import Foundation
import GRDB
import PhotoModel

/// The library's database pool, kept private so that every change of the library's objects reaches the change
/// log: besides reads, the only ways to write are `recordChange`, which records and publishes what changed, and
/// `writeUnrecorded`, for the library's own bookkeeping that no observer follows.
struct LibraryWriter: Sendable {
    private let pool: DatabasePool
    let libraryId: String
    /// Committed transactions, in commit order, for observers in this process.
    let feed: ChangeFeed
    /// The results observers follow, advanced at each commit.
    let observedResults: ObservedResults
    private let publisher: CommitPublisher
    /// Names the locations written (see `PlaceResolving`).
    private let places: (any PlaceResolving)?

    /// Opens (creating and migrating as needed) the database file at `path`.
    init(path: String, places: (any PlaceResolving)?) throws {
        self.places = places
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        // Kept by the pool's configuration, as long as the pool.
        let checkpointer = WALCheckpointer(path: path)
        configuration.prepareDatabase { db in
            db.add(function: PredicateSQL.foldFunction)
            checkpointer.takeOverCheckpoints(of: db)
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        // Committed transactions must survive a crash of the process or the machine. Set on the open pool: opening
        // it in WAL mode sets NORMAL on the writer after `prepareDatabase` ran.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try Schema.migrator.migrate(pool)
        try pool.writeWithoutTransaction(ChangeCapture.install)
        let info = try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT libraryId, generation FROM library_info")!
        }
        libraryId = info["libraryId"]
        feed = ChangeFeed(generation: info["generation"])
        observedResults = ObservedResults(generation: info["generation"])
        publisher = CommitPublisher(feed: feed, observedResults: observedResults)
        // Added once: each addition or removal of an observer drops the connection's cached statements that can
        // delete rows, and compiling an insert into `asset` (with its triggers) costs more than running it.
        pool.writeWithoutTransaction { [publisher] db in db.add(transactionObserver: publisher, extent: .databaseLifetime) }
    }

    /// Reads at one consistent state, beside the writes.
    func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await pool.read(body)
    }

    /// Which write transactions are change events.
    enum Recording {
        /// Every one, even one that noted no change: a `PerformChanges` call always commits a new state.
        case always
        /// Only one whose body noted a change.
        case whenNoted
    }

    /// Runs `body` in one write transaction. What it changed, noted on the transaction (and what the capture
    /// triggers saw), is recorded as one change-log entry and, once committed, advances the observed results
    /// and wakes the observers in commit order. Returns nil for `committed` when `recording` left it unrecorded.
    ///
    /// A commit that `syncsCommit` false leaves unsynced survives a crash of the process, and a crash of the machine
    /// once a later synced commit is made (SQLite's log is written, and synced, in order).
    func recordChange<Value: Sendable>(
        now: Date = Date(), recording: Recording = .whenNoted, syncsCommit: Bool = true,
        _ body: @escaping @Sendable (inout ChangeTransaction) throws -> Value
    ) async throws -> (value: Value, committed: CommittedChange?) {
        try await pool.writeWithoutTransaction { [publisher] db in
            if !syncsCommit { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            defer { if !syncsCommit { try? db.execute(sql: "PRAGMA synchronous = FULL") } }
            var result: (value: Value, committed: CommittedChange?)?
            try db.inTransaction {
                var transaction = ChangeTransaction(db: db, now: now.timeIntervalSince1970, places: places)
                let value = try body(&transaction)
                guard recording == .always || transaction.hasChanges else {
                    result = (value, nil)
                    return .commit
                }
                let committed = try transaction.recordChangeLog()
                publisher.publishOnCommit(committed)
                result = (value, committed)
                return .commit
            }
            return result!
        }
    }

    /// Runs `body` as `recordChange` would, change log included, then rolls it all back: the statements it ran
    /// stay compiled, so the first real write of its kind costs what later ones do.
    func rehearse(_ body: @escaping @Sendable (inout ChangeTransaction) throws -> Void) async throws {
        try await pool.writeWithoutTransaction { db in
            try db.inTransaction {
                var transaction = ChangeTransaction(db: db, now: Date().timeIntervalSince1970, places: places)
                try body(&transaction)
                _ = try transaction.recordChangeLog()
                return .rollback
            }
        }
    }

    /// A write of bookkeeping that is not part of any object an observer follows (import sources, whether a
    /// source's files are online, the change log's own pruning): it is not recorded in the change log.
    func writeUnrecorded<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await pool.write(body)
    }

    /// Starts following `queries`; see `LibraryDatabase.track`.
    func track(_ queries: [ObservedQuery]) async throws {
        try await observedResults.track(queries, in: pool)
    }

    /// Returns once the writer has run an empty step: proof that writes are not stuck.
    func answersWrites() async throws {
        try await pool.writeWithoutTransaction { _ in }
    }
}
