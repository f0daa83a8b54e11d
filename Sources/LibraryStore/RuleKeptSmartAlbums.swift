import Foundation
import GRDB
import PhotoModel

extension Schema {
    /// The smart albums Apple keeps by rule beyond the first ones (selfies, slo-mo, time-lapse, animated, portrait,
    /// long exposure), each with its tally, index and exact count; and the library's own self-portrait subtype, which
    /// follows the lens the camera recorded. Idempotent: a library created after this code had them from the start.
    static func registerRuleKeptSmartAlbums(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10-rule-kept-smart-albums") { db in
            let added: [CollectionSubtype] = [.smartAlbumSelfPortraits, .smartAlbumSlomoVideos, .smartAlbumTimelapses,
                                              .smartAlbumAnimated, .smartAlbumDepthEffect, .smartAlbumLongExposures]
            let now = Date().timeIntervalSince1970
            let position = try Int.fetchOne(db, sql: "SELECT coalesce(max(position), -1) + 1 FROM collection WHERE kind = 'smartAlbum'")!
            for (offset, subtype) in added.enumerated() {
                try db.execute(sql: """
                    INSERT INTO collection (id, kind, subtype, title, parentId, position, createdTime)
                    SELECT ?, 'smartAlbum', ?, ?, NULL, ?, ?
                    WHERE NOT EXISTS (SELECT 1 FROM collection WHERE kind = 'smartAlbum' AND subtype = ?)
                    """, arguments: [UUID().uuidString.lowercased(), subtype.rawValue, subtype.defaultTitle, position + offset,
                                     now, subtype.rawValue])
                try db.execute(sql: """
                    CREATE INDEX IF NOT EXISTS \(SmartAlbumIndex.name(subtype)) ON asset(creationTime)
                    WHERE \(AssetRules.smartAlbum(subtype).joined(separator: " AND "))
                    """)
            }
            try createSelfPortraitTriggers(db)
            // The tally triggers count every bucket of this version; the new buckets are counted afresh.
            try db.execute(sql: """
                DROP TRIGGER IF EXISTS asset_tally_after_insert;
                DROP TRIGGER IF EXISTS asset_tally_after_delete;
                DROP TRIGGER IF EXISTS asset_tally_after_update;
                DELETE FROM asset_tally WHERE subtype IN (\(added.map { "'\($0.rawValue)'" }.joined(separator: ", ")));
                \(tallyTriggers)
                """)
            for bucket in TallyBucket.all where added.contains(bucket.subtype) {
                try db.execute(sql: """
                    INSERT INTO asset_tally (subtype, day, assetCount)
                    SELECT '\(bucket.subtype.rawValue)', \(bucket.day("asset")), count(*) FROM asset
                    WHERE \(bucket.terms("asset").joined(separator: " AND ")) GROUP BY 2
                    """)
            }
        }
    }

    /// `photoSelfPortrait` follows `asset.lensModel`: set while the lens the camera recorded is its front one (as
    /// phones write it: "iPhone 12 front camera 2.71mm f/2.2"), whoever writes the lens (an import, the camera-data
    /// backfill).
    private static func createSelfPortraitTriggers(_ db: Database) throws {
        let bit = MediaSubtypes.photoSelfPortrait.rawValue
        let isFront = { (row: String) in "coalesce(\(row)lensModel LIKE '%front%', 0)" }
        let refresh = "UPDATE asset SET mediaSubtypes = (mediaSubtypes & ~\(bit)) | (CASE WHEN \(isFront("")) "
            + "THEN \(bit) ELSE 0 END)"
        try db.execute(sql: """
            CREATE TRIGGER IF NOT EXISTS asset_self_portrait_after_insert AFTER INSERT ON asset
            WHEN NEW.lensModel LIKE '%front%' BEGIN
              \(refresh) WHERE id = NEW.id;
            END;
            CREATE TRIGGER IF NOT EXISTS asset_self_portrait_after_update AFTER UPDATE OF lensModel ON asset
            WHEN \(isFront("OLD.")) IS NOT \(isFront("NEW.")) BEGIN
              \(refresh) WHERE id = NEW.id;
            END;
            \(refresh) WHERE (mediaSubtypes & \(bit) != 0) IS NOT \(isFront(""));
            """)
    }
}
