import GRDB

extension Schema {
    /// Import sources added at run time, and what the importer knows of each resource's file.
    static func registerImportSources(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-import-sources") { db in
            try db.create(table: "import_source") { table in
                table.primaryKey("path", .text)
                table.column("mode", .text).notNull()
                table.column("recursive", .boolean).notNull()
                table.column("addedTime", .double).notNull()
            }
            // One row per resource that came from a file: where it was found, its stat identity (so unchanged files
            // are recognised without reading them), its content hash, and the group (folder + base name) it pairs in.
            try db.create(table: "resource_file", options: .withoutRowID) { table in
                table.column("assetId", .text).notNull()
                table.column("type", .text).notNull()
                table.primaryKey(["assetId", "type"])
                table.foreignKey(["assetId", "type"], references: "resource", columns: ["assetId", "type"],
                                 onDelete: .cascade, onUpdate: .cascade)
                table.column("contentHash", .text).notNull()
                table.column("sourceRoot", .text)
                table.column("sourcePath", .text).notNull()
                table.column("groupKey", .text)
                table.column("role", .text).notNull()
                table.column("device", .integer).notNull()
                table.column("inode", .integer).notNull()
                table.column("size", .integer).notNull()
                table.column("modificationTime", .integer).notNull()
                table.column("isOffline", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: "resource_file_by_hash", on: "resource_file", columns: ["contentHash"])
            try db.create(index: "resource_file_by_source_path", on: "resource_file", columns: ["sourcePath"])
            try db.create(index: "resource_file_by_root", on: "resource_file", columns: ["sourceRoot"])
            try db.create(index: "resource_file_by_group", on: "resource_file", columns: ["groupKey"])
        }
    }
}
