import GRDB
import PhotoModel

/// Files in import sources whose content another asset has, remembered with their stat identity and content hash: a
/// source's reconciliation at every start leaves them unread while they are unchanged and the library still holds
/// their content (they were re-queued and hashed again at each start). A file that changes is read again.
extension Schema {
    static func registerSourceDuplicates(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-source-duplicates") { db in
            try db.create(table: "source_duplicate", options: .withoutRowID) { table in
                table.primaryKey("sourcePath", .text)
                table.column("sourceRoot", .text).notNull().indexed()
                table.column("contentHash", .text).notNull()
                table.column("device", .integer).notNull()
                table.column("inode", .integer).notNull()
                table.column("size", .integer).notNull()
                table.column("modificationTime", .integer).notNull()
            }
        }
    }
}

extension ChangeTransaction {
    /// Remembers a source file found to duplicate content the library has, or forgets a file that became something else.
    mutating func recordSourceDuplicate(_ file: SourceFile, outcome: IngestOutcome) throws {
        guard let root = file.sourceRoot else { return }
        guard case .duplicate = outcome else {
            return try db.execute(
                sql: "DELETE FROM source_duplicate WHERE sourcePath = ?", arguments: [file.sourcePath])
        }
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO source_duplicate (sourcePath, sourceRoot, contentHash, device, inode, size, modificationTime)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            file.sourcePath, root, file.contentHash, Int64(bitPattern: file.identity.device),
            Int64(bitPattern: file.identity.inode), file.identity.size, file.identity.modificationTime,
        ])
    }
}

/// The files of import sources the library did not take because it holds their content already, remembered so
/// that a rescan does not read them again.
public struct SourceDuplicateRecords: Sendable {
    let writer: LibraryWriter

    /// The files of the source at `root` known to duplicate content the library still holds, with the identity they
    /// had then.
    public func duplicateFiles(inSource root: String) async throws -> [String: FileIdentity] {
        try await writer.read { db in
            var files: [String: FileIdentity] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT d.sourcePath, d.device, d.inode, d.size, d.modificationTime FROM source_duplicate d
                    WHERE d.sourceRoot = ? AND (EXISTS (SELECT 1 FROM resource_file rf WHERE rf.contentHash = d.contentHash)
                      OR EXISTS (SELECT 1 FROM asset a WHERE a.contentHash = d.contentHash))
                    """, arguments: [root])
            while let row = try rows.next() {
                let device: Int64 = row[1], inode: Int64 = row[2]
                files[row[0]] = FileIdentity(
                    device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode),
                    size: row[3], modificationTime: row[4])
            }
            return files
        }
    }

    /// Forgets the duplicates remembered at `paths` (files no longer there).
    public func forgetDuplicateFiles(at paths: [String]) async throws {
        guard !paths.isEmpty else { return }
        try await writer.writeUnrecorded { db in
            for path in paths {
                try db.execute(sql: "DELETE FROM source_duplicate WHERE sourcePath = ?", arguments: [path])
            }
        }
    }

    /// The asset that already has a file with this content (SHA-256, lowercase hex), as an import would find it.
    public func assetHoldingContent(_ contentHash: String) async throws -> String? {
        try await writer.read { db in try ContentHolder.find(contentHash, in: db)?.assetId }
    }
}
