import Foundation
import GRDB
import PhotoModel

/// Assets' perceptual fingerprints and the groups of duplicates made from them (CONTRACT §17).
public struct DuplicateRecords: Sendable {
    let writer: LibraryWriter

    /// Image assets whose fingerprint is still to make (from before duplicates, or whose first rendition came from
    /// elsewhere), oldest first.
    public func assetsAwaitingFingerprints(limit: Int) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id FROM asset INDEXED BY asset_awaiting_fingerprint
                        WHERE fingerprintMade = 0 AND mediaType = \(MediaType.image.photoKitValue) ORDER BY rowid LIMIT ?
                        """), arguments: [limit])
        }
    }

    /// How many image assets wait for their fingerprint.
    public func countAssetsAwaitingFingerprints() async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT count(*) FROM asset INDEXED BY asset_awaiting_fingerprint
                        WHERE fingerprintMade = 0 AND mediaType = \(MediaType.image.photoKitValue)
                        """))!
        }
    }

    /// Stores fingerprints made (nil: the picture has none: too small, blank) and regroups the duplicates around
    /// them, in one transaction; the Duplicates album is announced as changed when a group did. Animated images keep
    /// none. The commit is not synced: fingerprints a machine crash loses are made again, since their assets wait.
    public func recordFingerprints(_ made: [(assetId: String, fingerprint: ImageFingerprint?)]) async throws {
        _ = try await writer.recordChange(syncsCommit: false) { transaction in
            let db = transaction.db
            for (assetId, fingerprint) in made {
                try db.cachedStatement(
                    sql: """
                        UPDATE asset SET fingerprint = CASE WHEN \(DuplicateGroups.fingerprinted("asset")) THEN ? END,
                          fingerprintMade = 1
                        WHERE id = ? AND fingerprintMade = 0
                        """
                ).execute(arguments: [fingerprint?.storedValue, assetId])
            }
            if try DuplicateGroups.regroupCaptured(db) { try transaction.noteDuplicatesChanged() }
        }
    }

    /// Groups the duplicates by `threshold` (`[duplicates] similarity_threshold`): all of them afresh when it is not
    /// the one they follow (the first start after an upgrade, a changed setting), else nothing.
    public func useDuplicateThreshold(_ threshold: Int) async throws {
        guard (0...DuplicateGroups.largestThreshold).contains(threshold) else {
            throw LibraryError.invalidParameter("similarity_threshold")
        }
        // Not synced: a crash that loses the commit loses the threshold it records with it, and the next start
        // groups afresh again.
        _ = try await writer.recordChange(syncsCommit: false) { transaction in
            guard try DuplicateGroups.threshold(transaction.db) != threshold else { return }
            if try DuplicateGroups.regroupAll(threshold: threshold, in: transaction.db) {
                try transaction.noteDuplicatesChanged()
            }
        }
    }

    /// The groups of duplicates among the assets `query` selects (all shown ones when nil), each ordered best first
    /// and of two or more of them, in the Duplicates album's order.
    public func fetchDuplicates(_ query: AssetQuery?) async throws -> [[String]] {
        let now = Date()
        return try await writer.read { db in
            let terms = AssetRules.smartAlbum(.smartAlbumDuplicates).joined(separator: " AND ")
            var sql = """
                SELECT asset.id, member.groupRow FROM asset JOIN duplicate_member AS member ON member.assetRow = asset.rowid
                WHERE \(terms)
                """
            var arguments = StatementArguments()
            if let query {
                let selection = try AssetSelection.compiling(query, now: now, in: db)
                sql += " AND asset.id IN (\(selection.idsSQL))"
                arguments = selection.arguments
            }
            let rows = try Row.fetchAll(
                db, sql: sql + " ORDER BY member.groupRow, member.position", arguments: arguments)
            var groups: [[String]] = []
            var current: Int64?
            for row in rows {
                let group: Int64 = row[1]
                if group == current { groups[groups.count - 1].append(row[0]) } else { groups.append([row[0]]) }
                current = group
            }
            return groups.filter { $0.count > 1 }
        }
    }
}

extension ChangeTransaction {
    /// Announces the Duplicates smart album as changed.
    mutating func noteDuplicatesChanged() throws {
        guard
            let id = try String.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM collection WHERE kind = 'smartAlbum' AND subtype = ?"),
                arguments: [CollectionSubtype.smartAlbumDuplicates.rawValue])
        else { return }
        note(.collection, id, .changed)
    }

    /// Merges members of one group of duplicates as Photos does: the best of them keeps the union of their albums
    /// and keywords, is a favorite if any was, takes the highest rating, a title, caption and location where it had
    /// none, and the earliest creation date; the others go to Recently Deleted, their albums kept for a restore.
    mutating func mergeDuplicates(_ ids: [String], index: Int) throws {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, \(DuplicateGroups.group()) AS duplicateGroup, trashedTime, isFavorite, latitude, longitude,
                  altitude, creationTime, creationOffset, creationDateSource
                FROM asset WHERE id IN (\(databaseQuestionMarks(count: ids.count)))
                ORDER BY \(DuplicateGroups.position())
                """, arguments: StatementArguments(ids))
        let groups = Set(rows.map { $0["duplicateGroup"] as Int64? })
        guard rows.count == ids.count, groups.count == 1, groups.first! != nil,
            rows.allSatisfy({ ($0["trashedTime"] as Double?) == nil })
        else {
            throw LibraryError.invalidChange(
                index: index, reason: "the assets are not members of one group of duplicates")
        }
        let kept: String = rows[0]["id"]
        let others = rows.dropFirst()
        var annotations = try self.annotations(ofAsset: kept)
        for other in others {
            let theirs = try self.annotations(ofAsset: other["id"])
            annotations.rating = max(annotations.rating, theirs.rating)
            annotations.keywords = Annotations.normalized(annotations.keywords + theirs.keywords)
            annotations.title = annotations.title ?? theirs.title
            annotations.caption = annotations.caption ?? theirs.caption
        }
        var update = AssetUpdate()
        if !(rows[0]["isFavorite"] as Bool), others.contains(where: { $0["isFavorite"] as Bool }) {
            update.isFavorite = true
        }
        if (rows[0]["latitude"] as Double?) == nil,
            let located = others.first(where: { ($0["latitude"] as Double?) != nil })
        {
            update.location = .set(
                Location(latitude: located["latitude"], longitude: located["longitude"], altitude: located["altitude"]))
        }
        try updateAsset(kept, update)
        if try writeAnnotations(annotations, ofAsset: kept) || update.location != .unchanged {
            try SidecarRecords.noteSidecarWriteDue(ofAsset: kept, in: db)
        }
        if let earliest = rows.filter({ ($0["creationTime"] as Double?) != nil })
            .min(by: { ($0["creationTime"] as Double) < ($1["creationTime"] as Double) }),
            (earliest["id"] as String) != kept
        {
            try db.execute(
                sql: """
                    UPDATE asset SET creationTime = ?, creationOffset = ?, creationDateSource = ? WHERE id = ?
                    AND (creationTime IS NULL OR creationTime > ?)
                    """,
                arguments: [
                    earliest["creationTime"], earliest["creationOffset"], earliest["creationDateSource"], kept,
                    earliest["creationTime"],
                ])
        }
        for other in others {
            let otherId: String = other["id"]
            try db.execute(
                sql: """
                    INSERT INTO album_asset (albumId, assetId, position)
                    SELECT theirs.albumId, ?, (SELECT coalesce(max(position), -1) + 1 FROM album_asset
                                               WHERE albumId = theirs.albumId)
                    FROM album_asset AS theirs WHERE theirs.assetId = ?
                    AND NOT EXISTS (SELECT 1 FROM album_asset WHERE albumId = theirs.albumId AND assetId = ?)
                    """, arguments: [kept, otherId, kept])
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO merged_away_content (contentHash, mergedAssetId, keptAssetId)
                    SELECT contentHash, ?1, ?2 FROM asset WHERE id = ?1
                    UNION SELECT contentHash, ?1, ?2 FROM resource_file WHERE assetId = ?1
                    """, arguments: [otherId, kept])
            try db.cachedStatement(sql: "UPDATE asset SET trashedTime = ? WHERE id = ?").execute(arguments: [
                now, otherId,
            ])
            note(.asset, otherId, .changed)
        }
        note(.asset, kept, .changed)
    }
}
