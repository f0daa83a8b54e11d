import GRDB

/// What the index records of one rendition file.
struct IndexEntry: Sendable, Hashable {
    /// The file's path below the renditions directory: "3f/3fa4....jpg".
    var file: String
    var width: Int
    var height: Int
    var mimeType: String
    var byteCount: Int
    /// SHA-256 of the file's bytes, lowercase hex, to detect a damaged file.
    var checksum: String
    var sourceVersion: String
    /// Seconds since 1970 of the last time the rendition was served or stored.
    var lastUsed: Double
}

/// The cache's SQLite index (`index.sqlite`): which rendition files exist, and when each was last used.
struct RenditionIndex: Sendable {
    private let database: DatabaseQueue

    /// Opens (creating and migrating as needed) the index at `path`.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // The cache can be rebuilt: a crash may lose the last changes, never the file's consistency.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        database = try DatabaseQueue(path: path, configuration: configuration)
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-renditions") { db in
            try db.create(table: "rendition", options: .withoutRowID) { table in
                table.column("assetId", .text).notNull()
                table.column("variant", .text).notNull()
                table.column("file", .text).notNull()
                table.column("width", .integer).notNull()
                table.column("height", .integer).notNull()
                table.column("mimeType", .text).notNull()
                table.column("byteCount", .integer).notNull()
                table.column("checksum", .text).notNull()
                table.column("sourceVersion", .text).notNull()
                table.column("lastUsed", .double).notNull()
                table.primaryKey(["assetId", "variant"])
            }
        }
        try migrator.migrate(database)
    }

    /// Every entry.
    func loadAll() throws -> [RenditionKey: IndexEntry] {
        try database.read { db in
            var entries: [RenditionKey: IndexEntry] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT assetId, variant, file, width, height, mimeType, byteCount, checksum, sourceVersion, lastUsed
                FROM rendition
                """)
            while let row = try rows.next() {
                entries[RenditionKey(assetId: row[0], variant: row[1])] = IndexEntry(
                    file: row[2], width: row[3], height: row[4], mimeType: row[5], byteCount: row[6],
                    checksum: row[7], sourceVersion: row[8], lastUsed: row[9])
            }
            return entries
        }
    }

    /// Records `entry` for `key`, replacing what was there.
    func save(_ entry: IndexEntry, for key: RenditionKey) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO rendition
                (assetId, variant, file, width, height, mimeType, byteCount, checksum, sourceVersion, lastUsed)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [key.assetId, key.variant, entry.file, entry.width, entry.height, entry.mimeType,
                                 entry.byteCount, entry.checksum, entry.sourceVersion, entry.lastUsed])
        }
    }

    /// Forgets the entries of `keys`.
    func remove(_ keys: some Collection<RenditionKey>) throws {
        guard !keys.isEmpty else { return }
        try database.write { db in
            for key in keys {
                try db.execute(sql: "DELETE FROM rendition WHERE assetId = ? AND variant = ?",
                               arguments: [key.assetId, key.variant])
            }
        }
    }

    /// Records when each rendition of `usage` was last used.
    func saveUsage(_ usage: [RenditionKey: Double]) throws {
        guard !usage.isEmpty else { return }
        try database.write { db in
            for (key, lastUsed) in usage {
                try db.execute(sql: "UPDATE rendition SET lastUsed = ? WHERE assetId = ? AND variant = ?",
                               arguments: [lastUsed, key.assetId, key.variant])
            }
        }
    }
}
