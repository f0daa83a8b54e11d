import GRDB

/// A store copy whose import committed before the copy was synced to disk.
public struct UnsyncedCopy: Sendable, Hashable {
    /// The library's copy.
    public var storedPath: String
    /// SHA-256 of the content it should hold, lowercase hex.
    public var contentHash: String
    /// The file it was copied from, which stays where it is until the copy is synced.
    public var sourcePath: String
}

extension Schema {
    /// Store copies committed but not yet synced: what a start after a crash of the machine checks.
    static func registerUnsyncedCopies(in migrator: inout DatabaseMigrator) {
        // A new table without foreign keys: nothing to check afterwards (a deferred check reads the whole library,
        // 25 s at a million assets).
        migrator.registerMigration("v7-unsynced-copies", foreignKeyChecks: .immediate) { db in
            try db.create(table: "unsynced_copy", options: .withoutRowID) { table in
                table.primaryKey("storedPath", .text)
                table.column("contentHash", .text).notNull()
                table.column("sourcePath", .text).notNull()
            }
        }
    }
}

extension ChangeTransaction {
    /// Remembers, in the transaction that made it the library's, a copy that is not synced yet.
    func rememberUnsyncedCopy(of request: IngestRequest) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO unsynced_copy (storedPath, contentHash, sourcePath) VALUES (?, ?, ?)"
        )
        .execute(arguments: [request.draft.resources[0].path, request.draft.contentHash, request.file.sourcePath])
    }
}

/// The store copies committed before their sync was confirmed, remembered until it is, so that a start after a crash
/// of the machine writes them again from their sources.
public struct UnsyncedCopyRecords: Sendable {
    let writer: LibraryWriter

    /// The store copies whose sync was not confirmed: after a crash of the machine their content may not be whole.
    public func all() async throws -> [UnsyncedCopy] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT storedPath, contentHash, sourcePath FROM unsynced_copy ORDER BY storedPath"
            )
            .map { UnsyncedCopy(storedPath: $0[0], contentHash: $0[1], sourcePath: $0[2]) }
        }
    }

    /// Forgets copies that are now synced, in a synced commit: SQLite's log is written in order, so that sync makes
    /// every commit before it durable too, the unsynced imports of these copies among them.
    public func forgetSynced(_ storedPaths: [String]) async throws {
        try await writer.writeUnrecorded { db in
            for path in storedPaths {
                try db.cachedStatement(sql: "DELETE FROM unsynced_copy WHERE storedPath = ?").execute(arguments: [path])
            }
        }
    }
}
