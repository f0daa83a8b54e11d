import Foundation
import GRDB
import PhotoModel

/// Finds, through temporary triggers on the writer's connection, the objects a write transaction affected beyond
/// those its changes name: albums whose members, order, or members' visibility or dates changed; smart albums and
/// moments whose counts moved (moments appear and disappear with them) or whose members' dates changed; burst
/// frames that became or stopped being their burst's representative; moments whose members' places changed. Whoever writes, the change log sees it.
enum ChangeCapture {
    /// Creates the capture tables and triggers on the writer's connection; safe to call again.
    static func install(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS captured_album (albumId TEXT PRIMARY KEY);
                CREATE TEMP TABLE IF NOT EXISTS captured_asset (
                  assetId TEXT PRIMARY KEY, previousDay INTEGER, datesChanged BOOLEAN NOT NULL);
                CREATE TEMP TABLE IF NOT EXISTS captured_tally (
                  subtype TEXT NOT NULL, day INTEGER NOT NULL, previousCount INTEGER NOT NULL, PRIMARY KEY (subtype, day));
                CREATE TEMP TRIGGER IF NOT EXISTS capture_album_insert AFTER INSERT ON main.album_asset BEGIN
                  \(captureAlbum("NEW.albumId"))
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS capture_album_update AFTER UPDATE ON main.album_asset BEGIN
                  \(captureAlbum("OLD.albumId"))
                  \(captureAlbum("NEW.albumId"))
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS capture_album_delete AFTER DELETE ON main.album_asset BEGIN
                  \(captureAlbum("OLD.albumId"))
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS capture_asset_shown AFTER UPDATE OF isHidden, trashedTime, collapsesIntoBurst
                ON main.asset BEGIN
                  \(captureAsset(datesChanged: false))
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS capture_asset_dated AFTER UPDATE OF creationTime, creationOffset ON main.asset BEGIN
                  UPDATE captured_asset SET datesChanged = 1 WHERE assetId = NEW.id;
                  \(captureAsset(datesChanged: true))
                END;
                CREATE TEMP TABLE IF NOT EXISTS captured_place_day (day INTEGER PRIMARY KEY);
                CREATE TEMP TRIGGER IF NOT EXISTS capture_asset_placed AFTER UPDATE OF placeId ON main.asset
                WHEN NEW.placeId IS NOT OLD.placeId AND NEW.localDay IS NOT NULL BEGIN
                  INSERT INTO captured_place_day SELECT NEW.localDay
                  WHERE NOT EXISTS (SELECT 1 FROM captured_place_day WHERE day = NEW.localDay);
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS capture_tally_insert AFTER INSERT ON main.asset_tally BEGIN
                  \(captureTally("NEW", count: "0"))
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS capture_tally_update AFTER UPDATE ON main.asset_tally BEGIN
                  \(captureTally("OLD", count: "OLD.assetCount"))
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS capture_tally_delete AFTER DELETE ON main.asset_tally BEGIN
                  \(captureTally("OLD", count: "OLD.assetCount"))
                END;
                """)
        try DuplicateGroups.installCapture(db)
    }

    // Trigger statements take the conflict policy of the statement that fired them, so they avoid conflicts
    // instead of relying on OR IGNORE: each capture keeps the first thing seen of its object.

    private static func captureAlbum(_ albumId: String) -> String {
        "INSERT INTO captured_album SELECT \(albumId) WHERE NOT EXISTS (SELECT 1 FROM captured_album WHERE albumId = \(albumId));"
    }

    private static func captureAsset(datesChanged: Bool) -> String {
        "INSERT INTO captured_asset SELECT NEW.id, OLD.localDay, \(datesChanged ? 1 : 0)"
            + " WHERE NOT EXISTS (SELECT 1 FROM captured_asset WHERE assetId = NEW.id);"
    }

    private static func captureTally(_ row: String, count: String) -> String {
        "INSERT INTO captured_tally SELECT \(row).subtype, \(row).day, \(count) WHERE NOT EXISTS"
            + " (SELECT 1 FROM captured_tally WHERE subtype = \(row).subtype AND day = \(row).day);"
    }

    /// The objects the captured triggers saw affected, as changes to record; empties the capture tables.
    ///
    /// Its statements run at every commit and are cached: compiling them costs more than running them.
    static func collect(_ db: Database, now: Double) throws -> [ObjectChange] {
        var changes: [ObjectChange] = []
        func changedCollections(_ sql: String, _ arguments: StatementArguments = []) throws {
            changes += try String.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
                .map { ObjectChange(id: $0, kind: .collection, change: .changed) }
        }
        // Joins start from the small capture tables (CROSS JOIN keeps that order), so a commit costs what it touched.
        changes += try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT assetId FROM temp.captured_asset AS captured
                    WHERE EXISTS (SELECT 1 FROM asset WHERE asset.id = captured.assetId)
                    """)
        ).map { ObjectChange(id: $0, kind: .asset, change: .changed) }
        try changedCollections(
            """
            SELECT albumId FROM temp.captured_album AS captured
            WHERE EXISTS (SELECT 1 FROM collection WHERE collection.id = captured.albumId)
            UNION SELECT album_asset.albumId FROM temp.captured_asset AS captured
            CROSS JOIN album_asset ON album_asset.assetId = captured.assetId
            """)
        let tallies = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT CASE WHEN captured.subtype = 'moment' THEN \(Moments.idSQL(day: "captured.day"))
                           ELSE (SELECT id FROM collection WHERE kind = 'smartAlbum' AND subtype = captured.subtype) END,
                           captured.previousCount, coalesce(tally.assetCount, 0), captured.subtype = 'moment'
                    FROM temp.captured_tally AS captured
                    LEFT JOIN asset_tally AS tally ON tally.subtype = captured.subtype AND tally.day = captured.day
                    WHERE captured.previousCount != coalesce(tally.assetCount, 0)
                    """))
        for row in tallies {
            guard let id: String = row[0] else { continue }
            let previous: Int = row[1], current: Int = row[2], isMoment: Bool = row[3]
            let change: ObjectChangeKind =
                isMoment && previous == 0 ? .inserted : (isMoment && current == 0 ? .removed : .changed)
            changes.append(ObjectChange(id: id, kind: .collection, change: change))
        }
        // A member whose date changed moves its smart albums' and moments' date ranges.
        try changedCollections(
            """
            SELECT collection.id FROM (
              SELECT previousDay AS day FROM temp.captured_asset WHERE datesChanged
              UNION SELECT asset.localDay FROM temp.captured_asset AS captured
              CROSS JOIN asset ON asset.id = captured.assetId WHERE captured.datesChanged
            ) AS days CROSS JOIN collection ON collection.id = \(Moments.idSQL(day: "days.day"))
            """)
        for subtype in CollectionSubtype.smartAlbums {
            let rule = AssetRules.smartAlbum(subtype, now: Date(timeIntervalSince1970: now))
            try changedCollections(
                """
                SELECT id FROM collection WHERE kind = 'smartAlbum' AND subtype = ? AND EXISTS (
                  SELECT 1 FROM temp.captured_asset AS captured CROSS JOIN asset ON asset.id = captured.assetId
                  WHERE captured.datesChanged AND \(rule.terms.joined(separator: " AND ")))
                """, [subtype.rawValue] + StatementArguments(rule.arguments))
        }
        // A member whose place changed changes its moment's location names.
        try changedCollections(
            """
            SELECT collection.id FROM temp.captured_place_day AS days
            CROSS JOIN collection ON collection.id = \(Moments.idSQL(day: "days.day"))
            """)
        for table in ["captured_album", "captured_asset", "captured_tally", "captured_place_day"] {
            try db.cachedStatement(sql: "DELETE FROM temp.\(table)").execute()
        }
        return changes
    }
}
