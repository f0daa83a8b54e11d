import Foundation
import GRDB
import PhotoModel

/// The library's migrations, registered by name and never edited once shipped.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-library") { db in
            try db.create(table: "library_info") { table in
                table.primaryKey("singleton", .integer).check { $0 == 1 }
                table.column("libraryId", .text).notNull()
                table.column("generation", .integer).notNull()
            }
            try db.execute(
                sql: "INSERT INTO library_info (singleton, libraryId, generation) VALUES (1, ?, 0)",
                arguments: [UUID().uuidString.lowercased()])

            try db.create(table: "asset") { table in
                table.primaryKey("id", .text)
                table.column("mediaType", .integer).notNull()
                table.column("mediaSubtypes", .integer).notNull().defaults(to: 0)
                table.column("pixelWidth", .integer).notNull()
                table.column("pixelHeight", .integer).notNull()
                table.column("orientation", .integer).notNull().defaults(to: 1)
                table.column("creationTime", .double)
                table.column("creationOffset", .integer)
                table.column("creationDateSource", .text)
                table.column("modificationTime", .double)
                table.column("addedTime", .double).notNull()
                table.column("latitude", .double)
                table.column("longitude", .double)
                table.column("altitude", .double)
                table.column("duration", .double).notNull().defaults(to: 0)
                table.column("isFavorite", .boolean).notNull().defaults(to: false)
                table.column("isHidden", .boolean).notNull().defaults(to: false)
                table.column("trashedTime", .double)
                table.column("burstIdentifier", .text)
                table.column("originalFilename", .text).notNull()
                table.column("fileSize", .integer).notNull()
                table.column("contentHash", .text).notNull().unique()
            }
            // The default order of the user library, as a partial index so counts of it stay cheap.
            try db.execute(
                sql: """
                    CREATE INDEX asset_library_order ON asset(creationTime, id) WHERE isHidden = 0 AND trashedTime IS NULL
                    """)
            try db.create(index: "asset_creation_order", on: "asset", columns: ["creationTime", "id"])
            try db.create(index: "asset_added_order", on: "asset", columns: ["addedTime"])

            try db.create(table: "resource", options: .withoutRowID) { table in
                table.column("assetId", .text).notNull().references("asset", onDelete: .cascade)
                table.column("type", .text).notNull()
                table.column("originalFilename", .text).notNull()
                table.column("mimeType", .text).notNull()
                table.column("fileSize", .integer).notNull()
                table.column("path", .text).notNull()
                table.column("isOwnedByLibrary", .boolean).notNull()
                table.primaryKey(["assetId", "type"])
            }
            try db.create(index: "resource_by_path", on: "resource", columns: ["path"])

            try db.create(table: "collection") { table in
                table.primaryKey("id", .text)
                table.column("kind", .text).notNull()
                table.column("subtype", .text).notNull()
                table.column("title", .text).notNull()
                table.column("parentId", .text).references("collection", onDelete: .cascade)
                table.column("position", .integer).notNull()
                table.column("createdTime", .double).notNull()
            }
            try db.create(index: "collection_by_parent", on: "collection", columns: ["parentId", "position"])

            try db.create(table: "album_asset", options: .withoutRowID) { table in
                table.column("albumId", .text).notNull().references("collection", onDelete: .cascade)
                table.column("assetId", .text).notNull().references("asset", onDelete: .cascade)
                table.column("position", .integer).notNull()
                table.primaryKey(["albumId", "assetId"])
            }
            try db.create(index: "album_asset_order", on: "album_asset", columns: ["albumId", "position"])
            try db.create(index: "album_asset_by_asset", on: "album_asset", columns: ["assetId"])

            try db.create(table: "change_log") { table in
                table.primaryKey("generation", .integer)
                table.column("committedTime", .double).notNull()
            }
            try db.create(table: "change_log_object", options: .withoutRowID) { table in
                table.column("generation", .integer).notNull().references("change_log", onDelete: .cascade)
                table.column("objectKind", .text).notNull()
                table.column("objectId", .text).notNull()
                table.column("change", .text).notNull()
                table.column("contentChanged", .boolean).notNull()
                table.primaryKey(["generation", "objectKind", "objectId"])
            }

            let now = Date().timeIntervalSince1970
            for (position, subtype) in CollectionSubtype.smartAlbums.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO collection (id, kind, subtype, title, parentId, position, createdTime)
                        VALUES (?, 'smartAlbum', ?, ?, NULL, ?, ?)
                        """,
                    arguments: [UUID().uuidString.lowercased(), subtype.rawValue, subtype.defaultTitle, position, now])
            }
        }
        registerImportSources(in: &migrator)
        registerLibraryModel(in: &migrator)
        registerRecentlyAddedAging(in: &migrator)
        registerCameraData(in: &migrator)
        registerEdits(in: &migrator)
        registerUnsyncedCopies(in: &migrator)
        registerSourceDuplicates(in: &migrator)
        registerAnnotations(in: &migrator)
        registerRuleKeptSmartAlbums(in: &migrator)
        registerFilesToRemove(in: &migrator)
        registerPlaces(in: &migrator)
        registerDuplicates(in: &migrator)
        return migrator
    }
}
