import Foundation
import GRDB
import PhotoModel

/// An edit ready to commit: its rendered file already in the library's store, and how it was made.
public struct AssetEditDraft: Sendable, Hashable {
    /// The rendered file in the library's store.
    public var path: String
    public var mimeType: String
    public var fileSize: Int64
    /// The rendered image's size as displayed, after its own orientation.
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// The EXIF orientation written in the rendered file.
    public var orientation: Int
    public var adjustment: Adjustment

    public init(
        path: String, mimeType: String, fileSize: Int64, pixelWidth: Int, pixelHeight: Int, orientation: Int,
        adjustment: Adjustment
    ) {
        self.path = path
        self.mimeType = mimeType
        self.fileSize = fileSize
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.adjustment = adjustment
    }
}

/// An asset's edit as the library keeps it.
public struct AssetEdit: Sendable, Hashable {
    public var draft: AssetEditDraft
    public var editedDate: Date
    /// The original's size as displayed (the asset's own size is the edit's).
    public var originalPixelWidth: Int
    public var originalPixelHeight: Int
}

/// What an edit starts from: an asset's original photo, and whether it may be edited now.
public struct EditableOriginal: Sendable, Hashable {
    public var path: String
    public var mediaType: MediaType
    public var isTrashed: Bool
    public var isOffline: Bool
}

extension Schema {
    static func registerEdits(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-edits") { db in
            try db.alter(table: "asset") { table in
                table.add(column: "hasAdjustments", .boolean).notNull().defaults(to: false)
            }
            // One row per edited asset. The asset's pixelWidth/pixelHeight are the edit's; the original's are kept here.
            try db.create(table: "asset_edit", options: .withoutRowID) { table in
                table.primaryKey("assetId", .text).references("asset", onDelete: .cascade)
                table.column("path", .text).notNull()
                table.column("mimeType", .text).notNull()
                table.column("fileSize", .integer).notNull()
                table.column("pixelWidth", .integer).notNull()
                table.column("pixelHeight", .integer).notNull()
                table.column("orientation", .integer).notNull()
                table.column("formatIdentifier", .text).notNull()
                table.column("formatVersion", .text).notNull()
                table.column("adjustmentData", .text).notNull()
                table.column("originalPixelWidth", .integer).notNull()
                table.column("originalPixelHeight", .integer).notNull()
                table.column("editedTime", .double).notNull()
            }
            try db.create(index: "asset_edit_by_path", on: "asset_edit", columns: ["path"])
        }
    }
}

extension ChangeTransaction {
    /// Keeps `edit` as the asset's current version, replacing an earlier edit (whose file is left for the caller to
    /// remove). The original and its resources stay as they are.
    mutating func edit(_ target: String, with edit: AssetEditDraft?, index: Int) throws {
        let id = try resolveAsset(target, index: index)
        guard let edit else { throw LibraryError.invalidChange(index: index, reason: "the edit was not prepared") }
        try checkEditable(id, index: index)
        if let previous = try String.fetchOne(db, sql: "SELECT path FROM asset_edit WHERE assetId = ?", arguments: [id])
        {
            purgedFiles.append(previous)
            try db.execute(
                sql: "UPDATE asset_edit SET path = ?, mimeType = ?, fileSize = ?, pixelWidth = ?, pixelHeight = ?, "
                    + "orientation = ?, formatIdentifier = ?, formatVersion = ?, adjustmentData = ?, editedTime = ? WHERE assetId = ?",
                arguments: [
                    edit.path, edit.mimeType, edit.fileSize, edit.pixelWidth, edit.pixelHeight, edit.orientation,
                    edit.adjustment.formatIdentifier, edit.adjustment.formatVersion, edit.adjustment.data, now, id,
                ])
        } else {
            try db.execute(
                sql: """
                    INSERT INTO asset_edit (assetId, path, mimeType, fileSize, pixelWidth, pixelHeight, orientation,
                      formatIdentifier, formatVersion, adjustmentData, originalPixelWidth, originalPixelHeight, editedTime)
                    SELECT id, ?, ?, ?, ?, ?, ?, ?, ?, ?, pixelWidth, pixelHeight, ? FROM asset WHERE id = ?
                    """,
                arguments: [
                    edit.path, edit.mimeType, edit.fileSize, edit.pixelWidth, edit.pixelHeight, edit.orientation,
                    edit.adjustment.formatIdentifier, edit.adjustment.formatVersion, edit.adjustment.data, now, id,
                ])
        }
        try db.execute(
            sql:
                "UPDATE asset SET pixelWidth = ?, pixelHeight = ?, hasAdjustments = 1, modificationTime = ? WHERE id = ?",
            arguments: [edit.pixelWidth, edit.pixelHeight, now, id])
        note(.asset, id, .changed, contentChanged: true)
    }

    /// Brings back the original as the asset's current version; the edit's file is left for the caller to remove.
    /// An asset without an edit stays as it is.
    mutating func revert(_ target: String, index: Int) throws {
        let id = try resolveAsset(target, index: index)
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT path, originalPixelWidth, originalPixelHeight FROM asset_edit WHERE assetId = ?
                    """, arguments: [id])
        else { return }
        try checkEditable(id, index: index)
        purgedFiles.append(row["path"])
        try db.execute(sql: "DELETE FROM asset_edit WHERE assetId = ?", arguments: [id])
        try db.execute(
            sql:
                "UPDATE asset SET pixelWidth = ?, pixelHeight = ?, hasAdjustments = 0, modificationTime = ? WHERE id = ?",
            arguments: [row["originalPixelWidth"], row["originalPixelHeight"], now, id])
        note(.asset, id, .changed, contentChanged: true)
    }

    /// Refuses edits of what cannot be edited now: anything but a photo, a trashed asset, an offline one.
    private func checkEditable(_ id: String, index: Int) throws {
        guard let original = try db.editableOriginal(of: id) else { throw LibraryError.notFound(id: id, index: index) }
        if let reason = original.reasonItCannotBeEdited {
            throw LibraryError.invalidChange(index: index, reason: reason)
        }
    }
}

extension EditableOriginal {
    /// Why the asset cannot be edited now; nil when it can.
    public var reasonItCannotBeEdited: String? {
        if mediaType != .image { return "only photos can be edited; this asset is a \(mediaType.rawValue)" }
        if isTrashed { return "the asset is in Recently Deleted: restore it before editing it" }
        if isOffline { return "the asset's file is offline (its source is not reachable)" }
        return nil
    }
}

extension Database {
    /// The original photo of an asset and its state; nil when the asset does not exist.
    func editableOriginal(of assetId: String) throws -> EditableOriginal? {
        try Row.fetchOne(
            self,
            sql: """
                SELECT a.mediaType, a.trashedTime IS NOT NULL AS isTrashed, r.path,
                  EXISTS (SELECT 1 FROM resource_file rf WHERE rf.assetId = a.id AND rf.type = r.type AND rf.isOffline) AS isOffline
                FROM asset a LEFT JOIN resource r ON r.assetId = a.id AND r.type IN ('photo', 'video', 'audio')
                WHERE a.id = ?
                """, arguments: [assetId]
        ).map { row in
            EditableOriginal(
                path: row["path"] ?? "", mediaType: MediaType(photoKitValue: row["mediaType"]) ?? .unknown,
                isTrashed: row["isTrashed"], isOffline: row["isOffline"])
        }
    }
}

/// Assets' edits: the rendered file and adjustment of each, and the original an edit starts from.
public struct EditRecords: Sendable {
    let writer: LibraryWriter

    /// The asset's edit; nil when it has none.
    public func edit(of assetId: String) async throws -> AssetEdit? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT path, mimeType, fileSize, pixelWidth, pixelHeight, orientation, formatIdentifier, formatVersion,
                      adjustmentData, editedTime, originalPixelWidth, originalPixelHeight FROM asset_edit WHERE assetId = ?
                    """, arguments: [assetId]
            ).map { row in
                AssetEdit(
                    draft: AssetEditDraft(
                        path: row["path"], mimeType: row["mimeType"], fileSize: row["fileSize"],
                        pixelWidth: row["pixelWidth"],
                        pixelHeight: row["pixelHeight"], orientation: row["orientation"],
                        adjustment: Adjustment(
                            formatIdentifier: row["formatIdentifier"], formatVersion: row["formatVersion"],
                            data: row["adjustmentData"])),
                    editedDate: Date(timeIntervalSince1970: row["editedTime"]),
                    originalPixelWidth: row["originalPixelWidth"],
                    originalPixelHeight: row["originalPixelHeight"])
            }
        }
    }

    /// The original an edit of the asset starts from; nil when the asset does not exist.
    public func editableOriginal(of assetId: String) async throws -> EditableOriginal? {
        try await writer.read { db in try db.editableOriginal(of: assetId) }
    }
}
