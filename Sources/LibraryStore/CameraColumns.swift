import Foundation
import GRDB
import PhotoModel

/// The camera's own data as columns of `asset`: written at ingest, and read in the background for assets a
/// library held before the columns existed.
enum CameraColumns {
    /// The columns, in the order `values(of:)` gives them.
    static let names = [
        "cameraMake", "cameraModel", "lensModel", "fNumber", "exposureTime", "iso", "focalLength",
        "focalLength35mm",
    ]

    /// `cameraMake = ?, …` for an UPDATE.
    static let assignments = names.map { $0 + " = ?" }.joined(separator: ", ")

    static func values(of camera: CameraData) -> [(any DatabaseValueConvertible)?] {
        [
            camera.make, camera.model, camera.lensModel, camera.fNumber, camera.exposureTime, camera.iso,
            camera.focalLength,
            camera.focalLength35mm,
        ]
    }
}

extension Schema {
    static func registerCameraData(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5-camera-data") { db in
            try db.alter(table: "asset") { table in
                for name in ["cameraMake", "cameraModel", "lensModel"] { table.add(column: name, .text) }
                for name in ["fNumber", "exposureTime", "focalLength"] { table.add(column: name, .double) }
                for name in ["iso", "focalLength35mm"] { table.add(column: name, .integer) }
                // Whether the camera data was read from the file; assets from before this migration wait for it.
                table.add(column: "cameraDataRead", .boolean).notNull().defaults(to: false)
            }
            // What a gallery filters on.
            try db.create(index: "asset_by_camera", on: "asset", columns: ["cameraMake", "cameraModel"])
            try db.create(index: "asset_by_lens", on: "asset", columns: ["lensModel"])
            try db.execute(sql: "CREATE INDEX asset_awaiting_camera_data ON asset(id) WHERE cameraDataRead = 0")
        }
    }
}

/// An asset whose camera data has not been read yet, and its primary file.
public struct AssetAwaitingCameraData: Sendable, Hashable {
    public var id: String
    public var mediaType: MediaType
    public var path: String
}

/// The camera data of assets imported before the library kept it, read afterwards.
public struct CameraDataRecords: Sendable {
    let writer: LibraryWriter

    /// Up to `limit` assets whose camera data was never read (the library predates it), with their primary file.
    public func assetsAwaitingCameraData(limit: Int) async throws -> [AssetAwaitingCameraData] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT asset.id, asset.mediaType, resource.path FROM asset
                    JOIN resource ON resource.assetId = asset.id AND resource.type IN ('photo', 'video', 'audio')
                    WHERE asset.cameraDataRead = 0 ORDER BY asset.id LIMIT ?
                    """, arguments: [limit]
            ).map { row in
                AssetAwaitingCameraData(
                    id: row[0], mediaType: MediaType(photoKitValue: row[1]) ?? .unknown, path: row[2])
            }
        }
    }

    /// Stores camera data read after the fact, in one transaction; assets that gained any of it are announced as
    /// changed. An asset whose file could not be read has nil and is not asked for again.
    @discardableResult
    public func recordCameraData(_ readings: [String: CameraData?], now: Date = Date()) async throws -> ChangeToken? {
        try await writer.recordChange(now: now) { transaction in
            let db = transaction.db
            for (id, camera) in readings {
                let camera = camera ?? CameraData()
                try db.execute(
                    sql: "UPDATE asset SET \(CameraColumns.assignments), cameraDataRead = 1 WHERE id = ?",
                    arguments: StatementArguments(CameraColumns.values(of: camera) + [id]))
                if db.changesCount > 0, camera != CameraData() { transaction.note(.asset, id, .changed) }
            }
        }.committed.map { ChangeToken(libraryId: writer.libraryId, generation: $0.generation) }
    }
}
