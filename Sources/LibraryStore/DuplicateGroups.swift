import Foundation
import GRDB
import GRDBSQLite
import PhotoModel

extension Schema {
    static func registerDuplicates(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13-duplicates") { db in
            try db.alter(table: "asset") { table in
                // The original's perceptual fingerprint; null when it has none (not made yet, too small, no structure,
                // not a still image).
                table.add(column: "fingerprint", .integer)
                // Whether the fingerprint was made (or found impossible); image assets from before wait for the
                // background analysis.
                table.add(column: "fingerprintMade", .boolean).notNull().defaults(to: false)
            }
            // The members of the groups of duplicates: the asset's row, the row of its group's best member, and its
            // place in the group (0 for the best). A table of its own, narrow, so that making every group afresh
            // writes a few hundred pages, not one page of the asset table for each member.
            try db.execute(
                sql: """
                    CREATE TABLE duplicate_member (
                      assetRow INTEGER PRIMARY KEY, groupRow INTEGER NOT NULL, position INTEGER NOT NULL);
                    CREATE INDEX duplicate_member_order ON duplicate_member(groupRow, position);
                    CREATE TRIGGER duplicate_member_gone AFTER DELETE ON asset BEGIN
                      DELETE FROM duplicate_member WHERE assetRow = OLD.rowid;
                    END;
                    """)
            // The content of each asset a merge moved to Recently Deleted, so that its file in a watched folder is not
            // imported again (nor the asset restored by seeing it): forgotten when the asset is restored.
            try db.create(table: "merged_away_content", options: .withoutRowID) { table in
                table.primaryKey("contentHash", .text)
                table.column("mergedAssetId", .text).notNull().indexed()
                table.column("keptAssetId", .text).notNull()
            }
            try db.execute(
                sql: """
                    CREATE TRIGGER merged_away_restored AFTER UPDATE OF trashedTime ON asset
                    WHEN OLD.trashedTime IS NOT NULL AND NEW.trashedTime IS NULL BEGIN
                      DELETE FROM merged_away_content WHERE mergedAssetId = NEW.id;
                    END;
                    """)
            try db.alter(table: "library_info") { table in
                // The similarity threshold the groups were made with; -1 before any.
                table.add(column: "duplicateThreshold", .integer).notNull().defaults(to: -1)
            }
            for band in 0..<DuplicateGroups.bandCount {
                try db.execute(
                    sql: """
                        CREATE INDEX asset_fingerprint_band\(band) ON asset(\(DuplicateGroups.band(band)), fingerprint)
                        WHERE fingerprint IS NOT NULL
                        """)
            }
            // The grouped assets' fingerprints alone, for making every group afresh without reading the table.
            try db.execute(
                sql: """
                    CREATE INDEX asset_grouped_fingerprint ON asset(fingerprint)
                    WHERE \(DuplicateGroups.candidateTerms().joined(separator: " AND "))
                    """)
            try db.execute(
                sql: """
                    CREATE INDEX asset_awaiting_fingerprint ON asset(fingerprintMade)
                    WHERE fingerprintMade = 0 AND mediaType = \(MediaType.image.photoKitValue);
                    CREATE TRIGGER asset_fingerprint_follows_content AFTER UPDATE OF contentHash ON asset
                    WHEN NEW.contentHash IS NOT OLD.contentHash BEGIN
                      UPDATE asset SET fingerprint = NULL, fingerprintMade = 0 WHERE rowid = NEW.rowid;
                    END;
                    """)
            // Animated images and videos get none: a still of an animation's first frame is not its copy.
            try db.execute(
                sql: "UPDATE asset SET fingerprintMade = 1 WHERE NOT (\(DuplicateGroups.fingerprinted("asset")))")
            try db.execute(
                sql: """
                    INSERT INTO collection (id, kind, subtype, title, parentId, position, createdTime)
                    SELECT ?, 'smartAlbum', ?, ?, NULL,
                      (SELECT coalesce(max(position), -1) + 1 FROM collection WHERE kind = 'smartAlbum'), ?
                    WHERE NOT EXISTS (SELECT 1 FROM collection WHERE kind = 'smartAlbum' AND subtype = ?)
                    """,
                arguments: [
                    UUID().uuidString.lowercased(), CollectionSubtype.smartAlbumDuplicates.rawValue,
                    CollectionSubtype.smartAlbumDuplicates.defaultTitle, Date().timeIntervalSince1970,
                    CollectionSubtype.smartAlbumDuplicates.rawValue,
                ])
        }
    }
}

/// Groups of duplicates (CONTRACT §17), kept in `duplicate_member` as the library changes.
///
/// A group is an asset, its best, and every asset within the threshold of that best one: walking the assets best
/// first, each one not grouped yet takes every other ungrouped asset within the threshold of it. So a burst whose
/// frames are each near the next never ends in one group. Fingerprints are found through multi-index hashing: four
/// SQLite indexes over the fingerprints' four 16-bit bands, since two fingerprints within `r` bits agree within
/// `r / 4` bits on at least one band.
enum DuplicateGroups {
    static let bandCount = 4
    static let bandBits = 16
    /// The largest threshold the index answers fast: 12 bits, 3 per band.
    static let largestThreshold = 12

    /// SQL of band `band` of `row`'s fingerprint, as its index is made.
    static func band(_ band: Int, _ row: String? = nil) -> String {
        let column = row.map { "\($0).fingerprint" } ?? "fingerprint"
        return "((\(column) >> \(band * bandBits)) & \((1 << bandBits) - 1))"
    }

    /// SQL: whether `row` is of a kind that gets a fingerprint: a still image.
    static func fingerprinted(_ row: String) -> String {
        "\(row).mediaType = \(MediaType.image.photoKitValue)"
            + " AND \(row).mediaSubtypes & \(MediaSubtypes.photoAnimated.rawValue) = 0"
    }

    /// SQL terms of the assets that are grouped: those with a fingerprint that a default fetch shows.
    static func candidateTerms(_ row: String = "asset") -> [String] {
        ["\(row).fingerprint IS NOT NULL"] + AssetRules.visibility(row)
    }

    /// The values within `radius` bits of a band's `value`.
    static func probes(of value: Int, radius: Int) -> [Int] {
        var values = [value]
        var frontier = [(value: value, lowestBit: 0)]
        for _ in 0..<radius {
            var next: [(value: Int, lowestBit: Int)] = []
            for (probe, lowestBit) in frontier {
                for bit in lowestBit..<bandBits {
                    next.append((probe ^ (1 << bit), bit + 1))
                }
            }
            values += next.map(\.value)
            frontier = next
        }
        return values
    }

    /// SQL of the group (its best member's row) and the place in it of `row`'s asset; null outside every group.
    static func group(_ row: String = "asset") -> String {
        "(SELECT groupRow FROM duplicate_member WHERE assetRow = \(row).rowid)"
    }
    static func position(_ row: String = "asset") -> String {
        "(SELECT position FROM duplicate_member WHERE assetRow = \(row).rowid)"
    }

    /// The threshold the library's groups follow.
    static func threshold(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT duplicateThreshold FROM library_info"))!
    }

    // MARK: - Capture

    /// Creates, on the writer's connection, the triggers that note which fingerprinted assets came, went, changed
    /// fingerprint or visibility in a transaction; ``regroupCaptured(_:)`` regroups around them before the commit.
    static func installCapture(_ db: Database) throws {
        let watched = "OLD.fingerprint IS NOT NULL OR NEW.fingerprint IS NOT NULL"
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS captured_fingerprint (
                  assetRow INTEGER, fingerprint INTEGER, previousGroup INTEGER);
                CREATE TEMP TRIGGER IF NOT EXISTS capture_fingerprint_update
                AFTER UPDATE OF fingerprint, isHidden, trashedTime, collapsesIntoBurst ON main.asset
                WHEN \(watched) BEGIN
                  INSERT INTO captured_fingerprint VALUES (NEW.rowid, OLD.fingerprint, \(group("OLD")));
                  INSERT INTO captured_fingerprint SELECT NEW.rowid, NEW.fingerprint, NULL
                  WHERE NEW.fingerprint IS NOT OLD.fingerprint;
                END;
                CREATE TEMP TRIGGER IF NOT EXISTS capture_fingerprint_delete BEFORE DELETE ON main.asset
                WHEN OLD.fingerprint IS NOT NULL BEGIN
                  INSERT INTO captured_fingerprint VALUES (NULL, OLD.fingerprint, \(group("OLD")));
                END;
                """)
    }

    /// Regroups the duplicates around every asset the capture saw; returns whether any group changed.
    static func regroupCaptured(_ db: Database) throws -> Bool {
        let captured = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT assetRow, fingerprint, previousGroup FROM temp.captured_fingerprint"))
        guard !captured.isEmpty else { return false }
        try db.cachedStatement(sql: "DELETE FROM temp.captured_fingerprint").execute()
        let threshold = try threshold(db)
        guard threshold >= 0 else { return false }
        var waiting = captured.compactMap { $0[0] as Int64? }
        for group in Set(captured.compactMap { $0[2] as Int64? }) {
            waiting += try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT assetRow FROM duplicate_member WHERE groupRow = ?"), arguments: [group])
        }
        for fingerprint in Set(captured.compactMap { $0[1] as Int64? }) {
            waiting += try neighbours(of: ImageFingerprint(storedValue: fingerprint), threshold: threshold, in: db)
        }
        // Every asset within the threshold of one regrouped is regrouped too, out to the whole connected set: the
        // groups of one such set depend on nothing outside it.
        var searched = Set<Int64>()
        var members: [Int64: GroupMember] = [:]
        while let row = waiting.popLast() {
            guard searched.insert(row).inserted else { continue }
            guard let member = try GroupMember.fetch(row: row, in: db) else { continue }
            members[row] = member
            waiting += try neighbours(of: member.fingerprint, threshold: threshold, in: db).filter {
                !searched.contains($0)
            }
        }
        let ordered = members.values.sorted(by: GroupMember.isBetter)
        let groups = DuplicateGrouping.groups(count: ordered.count) { index in
            ordered.indices.filter { ordered[$0].fingerprint.distance(to: ordered[index].fingerprint) <= threshold }
        }
        let placed = GroupPlace.places(of: groups.map { $0.map { ordered[$0].row } })
        var changed = false
        for row in searched {
            if let place = placed[row] {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO duplicate_member VALUES (?, ?, ?) ON CONFLICT (assetRow) DO UPDATE
                        SET groupRow = excluded.groupRow, position = excluded.position
                        WHERE groupRow IS NOT excluded.groupRow OR position IS NOT excluded.position
                        """
                ).execute(arguments: [row, place.group, place.position])
            } else {
                try db.cachedStatement(sql: "DELETE FROM duplicate_member WHERE assetRow = ?").execute(arguments: [row])
            }
            changed = changed || db.changesCount > 0
        }
        return changed
    }

    /// The rows of the fingerprinted assets within `threshold` bits of `fingerprint` (itself included if it is one),
    /// grouped or not (hidden, trashed): read from the band indexes alone, which hold the fingerprints, so that the
    /// candidates of a band cost no read of the asset table; whether one is grouped is asked of the few that match.
    static func neighbours(of fingerprint: ImageFingerprint, threshold: Int, in db: Database) throws -> [Int64] {
        let radius = threshold / bandCount
        var found: [Int64] = []
        for band in 0..<bandCount {
            let value = Int((fingerprint.bits >> UInt64(band * bandBits)) & 0xFFFF)
            let probes = probes(of: value, radius: radius)
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT rowid, fingerprint FROM asset INDEXED BY asset_fingerprint_band\(band)
                        WHERE \(self.band(band)) IN (SELECT value FROM json_each(?)) AND fingerprint IS NOT NULL
                        """),
                arguments: ["[" + probes.map(String.init).joined(separator: ",") + "]"])
            while let row = try rows.next() {
                if ImageFingerprint(storedValue: row[1]).distance(to: fingerprint) <= threshold { found.append(row[0]) }
            }
        }
        return found
    }

    /// Makes every group afresh (a new library, a changed threshold); returns whether any group changed.
    static func regroupAll(threshold: Int, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: "UPDATE library_info SET duplicateThreshold = ?").execute(arguments: [threshold])
        // Every grouped asset's fingerprint from the index that holds just them (the table is 50 times as large), read
        // column by column: a million rows through `Row` take four times as long. The rest of a member is read only
        // for those with a neighbour.
        let statement = try db.makeStatement(
            sql: """
                SELECT rowid, fingerprint FROM asset INDEXED BY asset_grouped_fingerprint
                WHERE \(candidateTerms().joined(separator: " AND "))
                """)
        var rows: [Int64] = []
        var fingerprints: [ImageFingerprint] = []
        while case let code = sqlite3_step(statement.sqliteStatement), code != SQLITE_DONE {
            guard code == SQLITE_ROW else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            rows.append(sqlite3_column_int64(statement.sqliteStatement, 0))
            fingerprints.append(ImageFingerprint(storedValue: sqlite3_column_int64(statement.sqliteStatement, 1)))
        }
        let index = FingerprintIndex(fingerprints, threshold: threshold)
        let linked = fingerprints.indices.filter(index.hasNeighbours)
        var members: [GroupMember] = []
        for chunk in stride(from: 0, to: linked.count, by: 500).map({ linked[$0..<min($0 + 500, linked.count)] }) {
            members += try GroupMember.fetch(rows: chunk.map { rows[$0] }, in: db)
        }
        members.sort(by: GroupMember.isBetter)
        let position = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.row, $0) })
        let indexOfRow = Dictionary(uniqueKeysWithValues: linked.map { (rows[$0], $0) })
        let groups = DuplicateGrouping.groups(count: members.count) { best in
            index.neighbours(of: indexOfRow[members[best].row]!).compactMap { position[rows[$0]] }
        }
        let placed = GroupPlace.places(of: groups.map { $0.map { members[$0].row } })
        var stored: [Int64: GroupPlace] = [:]
        let storedRows = try Row.fetchCursor(db, sql: "SELECT assetRow, groupRow, position FROM duplicate_member")
        while let row = try storedRows.next() { stored[row[0]] = GroupPlace(group: row[1], position: row[2]) }
        guard stored != placed else { return false }
        // Written afresh in row order: a few hundred pages of a narrow table.
        try db.execute(sql: "DELETE FROM duplicate_member")
        let insert = try db.makeStatement(sql: "INSERT INTO duplicate_member VALUES (?, ?, ?)")
        for (row, place) in placed.sorted(by: { $0.key < $1.key }) {
            try insert.execute(arguments: [row, place.group, place.position])
        }
        return true
    }
}

/// Where an asset is among the duplicates: its group (the row of the group's best member) and its place in it.
struct GroupPlace: Equatable {
    var group: Int64
    var position: Int

    /// The place of every member of `groups` (rows, each group best first).
    static func places(of groups: [[Int64]]) -> [Int64: GroupPlace] {
        var places: [Int64: GroupPlace] = [:]
        for group in groups {
            for (position, row) in group.enumerated() { places[row] = GroupPlace(group: group[0], position: position) }
        }
        return places
    }
}

/// What decides which member of a group is best: more pixels, then a larger file, then the earlier added.
struct GroupMember {
    var row: Int64
    var fingerprint: ImageFingerprint
    var pixels: Int
    var fileSize: Int
    var addedTime: Double

    private static let columns = "rowid, fingerprint, pixelWidth * pixelHeight, fileSize, addedTime"

    init(_ row: Row) {
        self.row = row[0]
        fingerprint = ImageFingerprint(storedValue: row[1])
        pixels = row[2]
        fileSize = row[3]
        addedTime = row[4]
    }

    /// The grouped asset of `row`; nil when it is not one (no fingerprint, hidden, trashed, gone).
    static func fetch(row: Int64, in db: Database) throws -> GroupMember? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT \(columns) FROM asset WHERE rowid = ?
                    AND \(DuplicateGroups.candidateTerms().joined(separator: " AND "))
                    """), arguments: [row]
        ).map(GroupMember.init)
    }

    /// The grouped assets among `rows`.
    static func fetch(rows: [Int64], in db: Database) throws -> [GroupMember] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT \(columns) FROM asset WHERE rowid IN (\(databaseQuestionMarks(count: rows.count)))
                AND \(DuplicateGroups.candidateTerms().joined(separator: " AND "))
                """, arguments: StatementArguments(rows)
        ).map(GroupMember.init)
    }

    static func isBetter(_ first: GroupMember, than second: GroupMember) -> Bool {
        if first.pixels != second.pixels { return first.pixels > second.pixels }
        if first.fileSize != second.fileSize { return first.fileSize > second.fileSize }
        if first.addedTime != second.addedTime { return first.addedTime < second.addedTime }
        return first.row < second.row
    }
}
