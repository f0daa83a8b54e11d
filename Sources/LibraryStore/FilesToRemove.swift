import GRDB

extension Schema {
    /// Files a commit stopped using (of purged assets, of replaced and reverted edits), listed in that commit and
    /// removed after it: a crash in between leaves the list, not a file no asset uses.
    static func registerFilesToRemove(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11-files-to-remove", foreignKeyChecks: .immediate) { db in
            try db.create(table: "file_to_remove", options: .withoutRowID) { table in
                table.primaryKey("path", .text)
            }
        }
    }
}

extension ChangeTransaction {
    /// Lists the files this transaction stopped using, for removal once it is committed.
    func listPurgedFiles() throws {
        for path in purgedFiles {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO file_to_remove (path) VALUES (?)").execute(arguments: [
                path
            ])
        }
    }
}

/// Files of the library's store that commits stopped using, listed so that a start after a crash removes them.
public struct RemovedFileRecords: Sendable {
    let writer: LibraryWriter

    /// The listed files no asset uses, for a start after a crash to remove; those a newer copy or edit took again
    /// since they were listed are taken off the list.
    public func unusedFilesToRemove() async throws -> [String] {
        try await writer.writeUnrecorded { db in
            try db.execute(
                sql: """
                    DELETE FROM file_to_remove
                    WHERE path IN (SELECT path FROM resource) OR path IN (SELECT path FROM asset_edit)
                    """)
            return try String.fetchAll(db, sql: "SELECT path FROM file_to_remove ORDER BY path")
        }
    }

    /// Takes removed files off the list.
    public func forgetRemovedFiles(_ paths: [String]) async throws {
        guard !paths.isEmpty else { return }
        try await writer.writeUnrecorded { db in
            for path in paths {
                try db.cachedStatement(sql: "DELETE FROM file_to_remove WHERE path = ?").execute(arguments: [path])
            }
        }
    }
}
