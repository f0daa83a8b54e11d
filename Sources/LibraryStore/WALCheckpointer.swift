import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Checkpoints the library's write-ahead log on a connection of its own, beside the writes.
///
/// SQLite's automatic checkpoint runs inside the commit that grows the log past its limit: that commit, and the
/// change event behind it, waits while a thousand pages are copied into the database and synced. Here the writer's
/// log hook only notes the size, and a passive checkpoint runs on this connection while the writer goes on.
///
/// The log restarts from its beginning only when a write begins after a checkpoint has copied all of it. Writes
/// that follow one another without pause (a bulk import) always find the background checkpoint behind, so the
/// log would grow without end: past `writerPageLimit` the writer checkpoints in its own commit, as SQLite would.
final class WALCheckpointer: Sendable {
    /// The log size, in pages, past which a background checkpoint starts (SQLite's automatic checkpoint's).
    static let pageLimit: CInt = 1_000
    /// The log size, in pages, past which the writer checkpoints itself: the background one cannot keep up.
    static let writerPageLimit: CInt = 4_000

    private let path: String
    private let work = DispatchQueue(label: "io.photolibd.wal-checkpoint")
    /// Opened at the first checkpoint, on `work` only.
    private let connection = Mutex<DatabaseQueue?>(nil)
    private let isScheduled = Atomic(false)

    init(path: String) {
        self.path = path
    }

    /// Replaces the automatic checkpoint of the writer's connection `db` with this one. Does nothing to a
    /// read-only connection, which never commits.
    func takeOverCheckpoints(of db: Database) {
        guard !db.configuration.readonly, let connection = db.sqliteConnection else { return }
        sqlite3_wal_hook(connection, { context, writer, databaseName, pages in
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue()
            if pages >= WALCheckpointer.writerPageLimit {
                // Busy while the background checkpoint runs: then the next commit tries again.
                _ = sqlite3_wal_checkpoint_v2(writer, databaseName, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            } else if pages >= WALCheckpointer.pageLimit {
                checkpointer.schedule()
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Starts a passive checkpoint unless one is under way.
    private func schedule() {
        guard isScheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        work.async { [self] in
            defer { isScheduled.store(false, ordering: .releasing) }
            // A checkpoint that cannot run now (the file is busy, or gone with the library) runs at the next limit.
            _ = try? connection.withLock { connection in
                if connection == nil { connection = try DatabaseQueue(path: path) }
                return try connection!.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            }
        }
    }
}
