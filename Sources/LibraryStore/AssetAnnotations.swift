import GRDB
import PhotoModel

/// An asset's stars, title and caption as columns of `asset`, its keywords as rows of `asset_keyword`: indexed
/// so that `rating >= 4` and `ANY keywords == 'x'` read only the assets they select, at a million assets.
enum AnnotationColumns {
    /// `asset.rating, …` for a SELECT; keywords come from `keywords(of:in:)`.
    static let selection = "asset.rating, asset.title, asset.caption"

    /// The stars, title and caption in a row that selected `selection`.
    static func annotations(from row: Row) -> Annotations {
        Annotations(rating: row["rating"], title: row["title"], caption: row["caption"])
    }

    /// The keywords of the given assets, in their order, keyed by asset id.
    static func keywords(of assetIds: [String], in db: Database) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for chunk in assetIds.chunked(into: 500) {
            let rows = try Row.fetchCursor(db, sql: """
                SELECT assetId, keyword FROM asset_keyword WHERE assetId IN (\(databaseQuestionMarks(count: chunk.count)))
                ORDER BY assetId, position
                """, arguments: StatementArguments(chunk))
            while let row = try rows.next() { result[row[0], default: []].append(row[1]) }
        }
        return result
    }
}

extension Schema {
    static func registerAnnotations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9-ratings-keywords-titles-captions") { db in
            try db.alter(table: "asset") { table in
                table.add(column: "rating", .integer).notNull().defaults(to: 0)
                table.add(column: "title", .text)
                table.add(column: "caption", .text)
            }
            try db.create(index: "asset_by_rating", on: "asset", columns: ["rating"])
            try db.create(table: "asset_keyword", options: .withoutRowID) { table in
                table.column("assetId", .text).notNull().references("asset", onDelete: .cascade)
                table.column("position", .integer).notNull()
                table.column("keyword", .text).notNull()
                table.primaryKey(["assetId", "position"])
            }
            // `ANY keywords == 'x'` reads the assets that have the keyword, through this index alone.
            try db.create(index: "asset_keyword_by_keyword", on: "asset_keyword", columns: ["keyword"])
            // The XMP sidecar each asset has, as the library last read or wrote it.
            try db.create(table: "asset_sidecar", options: .withoutRowID) { table in
                table.primaryKey("assetId", .text).references("asset", onDelete: .cascade)
                table.column("path", .text).notNull()
                table.column("device", .integer)
                table.column("inode", .integer)
                table.column("size", .integer)
                table.column("modificationTime", .integer)
                table.column("writeProblem", .text)
            }
            try db.create(index: "asset_sidecar_by_path", on: "asset_sidecar", columns: ["path"])
            // Assets whose changed annotations are not in their sidecar yet: written again after a crash.
            try db.create(table: "sidecar_write_pending", options: .withoutRowID) { table in
                table.primaryKey("assetId", .text).references("asset", onDelete: .cascade)
            }
        }
    }
}

extension ChangeTransaction {
    /// The asset's stars, keywords, title and caption.
    func annotations(ofAsset id: String) throws -> Annotations {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(AnnotationColumns.selection) FROM asset WHERE id = ?"),
                                         arguments: [id]) else { return Annotations() }
        var annotations = AnnotationColumns.annotations(from: row)
        annotations.keywords = try AnnotationColumns.keywords(of: [id], in: db)[id] ?? []
        return annotations
    }

    /// Replaces the asset's stars, keywords, title and caption; returns whether they changed.
    @discardableResult
    func writeAnnotations(_ annotations: Annotations, ofAsset id: String) throws -> Bool {
        let current = try self.annotations(ofAsset: id)
        guard annotations != current else { return false }
        if (annotations.rating, annotations.title, annotations.caption) != (current.rating, current.title, current.caption) {
            try db.cachedStatement(sql: "UPDATE asset SET rating = ?, title = ?, caption = ? WHERE id = ?")
                .execute(arguments: [annotations.rating, annotations.title, annotations.caption, id])
        }
        if annotations.keywords != current.keywords {
            try db.cachedStatement(sql: "DELETE FROM asset_keyword WHERE assetId = ?").execute(arguments: [id])
            for (position, keyword) in annotations.keywords.enumerated() {
                try db.cachedStatement(sql: "INSERT INTO asset_keyword (assetId, position, keyword) VALUES (?, ?, ?)")
                    .execute(arguments: [id, position, keyword])
            }
        }
        return true
    }

    /// Applies an `updateAsset`'s stars, keywords, title and caption; a change is due in the asset's sidecar,
    /// in the same transaction, so that a crash before the sidecar is written loses nothing.
    func updateAnnotations(ofAsset id: String, with update: AssetUpdate) throws {
        guard try writeAnnotations(update.applied(to: try annotations(ofAsset: id)), ofAsset: id) else { return }
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO sidecar_write_pending (assetId) VALUES (?)").execute(arguments: [id])
    }

    /// Gives a newly joined file's annotations (a RAW's darktable sidecar, say) to an asset that has none.
    func adoptAnnotations(_ annotations: Annotations, ofAsset id: String) throws {
        guard !annotations.isEmpty, try self.annotations(ofAsset: id).isEmpty else { return }
        try writeAnnotations(annotations, ofAsset: id)
    }
}
