import GRDB
import PhotoModel

extension Schema {
    /// Derived asset columns, burst representatives, moments and the tallies behind exact collection counts,
    /// all kept by triggers so that every writer keeps them right.
    static func registerLibraryModel(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-library-model") { db in
            try db.execute(sql: """
                ALTER TABLE asset ADD COLUMN isRAW BOOLEAN NOT NULL DEFAULT 0;
                ALTER TABLE asset ADD COLUMN collapsesIntoBurst BOOLEAN NOT NULL DEFAULT 0;
                ALTER TABLE asset ADD COLUMN localDay INTEGER GENERATED ALWAYS AS (\(AssetRules.localDaySQL)) VIRTUAL;
                ALTER TABLE asset ADD COLUMN addedDay INTEGER GENERATED ALWAYS AS (\(AssetRules.addedDaySQL)) VIRTUAL;
                ALTER TABLE collection ADD COLUMN momentDay INTEGER;
                """)
            try createRAWTriggers(db)
            try createBurstTriggers(db)
            try createTallies(db)
            try createIndexes(db)
        }
    }

    /// `asset.isRAW` follows the asset's resources: set while one of them is a RAW file.
    private static func createRAWTriggers(_ db: Database) throws {
        let isRAWResource = { (row: String) in
            "(\(row).type = 'alternatePhoto' OR \(row).mimeType IN (\(rawMIMETypes.map { "'\($0)'" }.joined(separator: ", "))))"
        }
        let refresh = { (assetId: String) in
            "UPDATE asset SET isRAW = EXISTS (SELECT 1 FROM resource WHERE resource.assetId = \(assetId) AND "
                + "\(isRAWResource("resource"))) WHERE id = \(assetId);"
        }
        try db.execute(sql: """
            CREATE TRIGGER asset_raw_after_resource_insert AFTER INSERT ON resource WHEN \(isRAWResource("NEW")) BEGIN
              \(refresh("NEW.assetId"))
            END;
            CREATE TRIGGER asset_raw_after_resource_delete AFTER DELETE ON resource WHEN \(isRAWResource("OLD")) BEGIN
              \(refresh("OLD.assetId"))
            END;
            CREATE TRIGGER asset_raw_after_resource_update AFTER UPDATE OF assetId, type, mimeType ON resource BEGIN
              \(refresh("OLD.assetId"))
              \(refresh("NEW.assetId"))
            END;
            UPDATE asset SET isRAW = EXISTS (SELECT 1 FROM resource WHERE resource.assetId = asset.id AND \(isRAWResource("resource")));
            """)
    }

    /// MIME types of camera RAW files.
    static let rawMIMETypes = [
        "image/x-adobe-dng", "image/x-canon-cr2", "image/x-canon-cr3", "image/x-canon-crw", "image/x-nikon-nef",
        "image/x-nikon-nrw", "image/x-sony-arw", "image/x-sony-sr2", "image/x-fuji-raf", "image/x-olympus-orf",
        "image/x-panasonic-rw2", "image/x-pentax-pef", "image/x-samsung-srw", "image/x-sigma-x3f", "image/x-raw",
    ]

    /// `asset.collapsesIntoBurst` marks every untrashed frame of a burst but its representative, the first
    /// untrashed frame by creation date then id; default fetches show only the representative.
    private static func createBurstTriggers(_ db: Database) throws {
        let collapses = { (burst: String) in
            """
            (trashedTime IS NULL AND id IS NOT (SELECT frame.id FROM asset AS frame WHERE frame.burstIdentifier = \(burst)
             AND frame.trashedTime IS NULL ORDER BY frame.creationTime, frame.id LIMIT 1))
            """
        }
        let refresh = { (burst: String) in
            "UPDATE asset SET collapsesIntoBurst = \(collapses(burst)) WHERE burstIdentifier = \(burst)"
                + " AND collapsesIntoBurst IS NOT \(collapses(burst));"
        }
        try db.execute(sql: """
            CREATE INDEX asset_burst_frames ON asset(burstIdentifier, creationTime, id) WHERE burstIdentifier IS NOT NULL;
            CREATE TRIGGER asset_burst_after_insert AFTER INSERT ON asset WHEN NEW.burstIdentifier IS NOT NULL BEGIN
              \(refresh("NEW.burstIdentifier"))
            END;
            CREATE TRIGGER asset_burst_after_delete AFTER DELETE ON asset WHEN OLD.burstIdentifier IS NOT NULL BEGIN
              \(refresh("OLD.burstIdentifier"))
            END;
            CREATE TRIGGER asset_burst_after_update AFTER UPDATE OF burstIdentifier, creationTime, trashedTime ON asset
            WHEN OLD.burstIdentifier IS NOT NULL OR NEW.burstIdentifier IS NOT NULL BEGIN
              \(refresh("OLD.burstIdentifier"))
              \(refresh("NEW.burstIdentifier"))
            END;
            UPDATE asset SET collapsesIntoBurst = \(collapses("asset.burstIdentifier")) WHERE burstIdentifier IS NOT NULL;
            """)
    }

    /// `asset_tally` counts what each `TallyBucket` shows; moments are the collections of the moment tally.
    private static func createTallies(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE asset_tally (
              subtype TEXT NOT NULL,
              day INTEGER NOT NULL,
              assetCount INTEGER NOT NULL,
              PRIMARY KEY (subtype, day)
            ) WITHOUT ROWID;
            CREATE TRIGGER asset_tally_drop_empty AFTER UPDATE OF assetCount ON asset_tally WHEN NEW.assetCount = 0 BEGIN
              DELETE FROM asset_tally WHERE subtype = NEW.subtype AND day = NEW.day;
            END;
            CREATE TRIGGER moment_appears AFTER INSERT ON asset_tally WHEN NEW.subtype = 'moment' BEGIN
              INSERT INTO collection (id, kind, subtype, title, parentId, position, createdTime, momentDay)
              SELECT \(Moments.idSQL(day: "NEW.day")), 'moment', 'moment', \(Moments.titleSQL(day: "NEW.day")), NULL,
                     NEW.day, CAST(strftime('%s', 'now') AS REAL), NEW.day
              WHERE NOT EXISTS (SELECT 1 FROM collection WHERE id = \(Moments.idSQL(day: "NEW.day")));
            END;
            CREATE TRIGGER moment_disappears AFTER DELETE ON asset_tally WHEN OLD.subtype = 'moment' BEGIN
              DELETE FROM collection WHERE id = \(Moments.idSQL(day: "OLD.day"));
            END;
            \(tallyTriggers)
            """)
        for bucket in TallyBucket.all {
            try db.execute(sql: """
                INSERT INTO asset_tally (subtype, day, assetCount)
                SELECT '\(bucket.subtype.rawValue)', \(bucket.day("asset")), count(*) FROM asset
                WHERE \(bucket.terms("asset").joined(separator: " AND ")) GROUP BY 2
                """)
        }
    }

    /// The triggers that keep `asset_tally` counting every bucket of this version as assets come, go and change.
    static var tallyTriggers: String {
        """
        CREATE TRIGGER asset_tally_after_insert AFTER INSERT ON asset BEGIN
          \(tallyUpdate([("NEW", 1)]))
        END;
        CREATE TRIGGER asset_tally_after_delete AFTER DELETE ON asset BEGIN
          \(tallyUpdate([("OLD", -1)]))
        END;
        CREATE TRIGGER asset_tally_after_update AFTER UPDATE OF mediaType, mediaSubtypes, pixelWidth, pixelHeight,
          creationTime, creationOffset, addedTime, isFavorite, isHidden, trashedTime, burstIdentifier, isRAW,
          collapsesIntoBurst ON asset BEGIN
          \(tallyUpdate([("OLD", -1), ("NEW", 1)]))
        END;
        """
    }

    /// One statement adding `delta` to every bucket that `row` counts in, for each (row, delta).
    static func tallyUpdate(_ rows: [(row: String, delta: Int)]) -> String {
        let contributions = rows.flatMap { row, delta in
            TallyBucket.all.map { bucket in
                "SELECT '\(bucket.subtype.rawValue)' AS subtype, \(bucket.day(row)) AS day, \(delta) AS delta"
                    + " WHERE \(bucket.terms(row).joined(separator: " AND "))"
            }
        }
        return """
            INSERT INTO asset_tally (subtype, day, assetCount)
            SELECT subtype, day, delta FROM (\(contributions.joined(separator: "\n UNION ALL "))) WHERE true
            ON CONFLICT (subtype, day) DO UPDATE SET assetCount = assetCount + excluded.assetCount;
            """
    }

    /// Partial indexes that give each smart album and moment its date range in one index step, and indexes for
    /// favorites by date, the trash's age and collection membership lookups. The library's default order keeps
    /// its index, now over exactly what a default fetch shows, so that scanning it needs no table lookups.
    private static func createIndexes(_ db: Database) throws {
        let shown = AssetRules.visibility().joined(separator: " AND ")
        try db.execute(sql: """
            DROP INDEX asset_library_order;
            CREATE INDEX \(SmartAlbumIndex.name(.smartAlbumUserLibrary)) ON asset(creationTime, id) WHERE \(shown);
            """)
        for subtype in AssetRules.fixedSmartAlbums where subtype != .smartAlbumUserLibrary {
            try db.execute(sql: """
                CREATE INDEX \(SmartAlbumIndex.name(subtype)) ON asset(creationTime)
                WHERE \(AssetRules.smartAlbum(subtype).joined(separator: " AND "))
                """)
        }
        try db.execute(sql: """
            CREATE INDEX asset_moment_order ON asset(localDay, creationTime) WHERE \(shown);
            CREATE INDEX asset_recently_added_order ON asset(addedDay, creationTime) WHERE \(shown);
            CREATE INDEX asset_favorites_by_date ON asset(isFavorite, isHidden, collapsesIntoBurst, trashedTime, creationTime);
            CREATE INDEX asset_trash_age ON asset(trashedTime) WHERE trashedTime IS NOT NULL;
            CREATE INDEX collection_by_kind ON collection(kind, createdTime);
            """)
    }
}

/// Names of the partial indexes that hold each smart album's assets in creation order.
enum SmartAlbumIndex {
    static func name(_ subtype: CollectionSubtype) -> String {
        subtype == .smartAlbumUserLibrary ? "asset_shown_order" : "asset_in_\(subtype.rawValue)"
    }
}

/// Moments: one collection per local calendar day that has assets to show, with an id derived from the day.
enum Moments {
    /// SQL of a moment's id for a day number: `moment-YYYY-MM-DD`, so a day's moment keeps its id forever.
    static func idSQL(day: String) -> String { "'moment-' || \(titleSQL(day: day))" }

    /// SQL of a moment's title for a day number: the date, `YYYY-MM-DD` (the day number beyond year 9999).
    static func titleSQL(day: String) -> String { "coalesce(date(\(day) * 86400, 'unixepoch'), \(day))" }
}
