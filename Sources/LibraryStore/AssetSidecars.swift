import GRDB
import PhotoModel

/// Reads `asset_sidecar` rows.
enum SidecarRows {
    /// The sidecar state of the given assets that have one, keyed by asset id.
    static func states(of assetIds: [String], in db: Database) throws -> [String: SidecarState] {
        var result: [String: SidecarState] = [:]
        for chunk in assetIds.chunked(into: 500) {
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT assetId, path, writeProblem FROM asset_sidecar WHERE assetId IN (\(databaseQuestionMarks(count: chunk.count)))
                    """, arguments: StatementArguments(chunk))
            {
                result[row[0]] = SidecarState(path: row[1], writeProblem: row[2])
            }
        }
        return result
    }

    static func identity(from row: Row, startingAt start: Int) -> FileIdentity? {
        guard let device = row[start] as Int64?, let inode = row[start + 1] as Int64?,
            let size = row[start + 2] as Int64?,
            let time = row[start + 3] as Int64?
        else { return nil }
        return FileIdentity(
            device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), size: size, modificationTime: time)
    }
}

/// What keeping an asset's sidecar needs to know about the asset.
public struct SidecarSubject: Sendable, Hashable {
    public var assetId: String
    public var annotations: Annotations
    /// Where the asset was taken, as the library has it (a write-back writes it into the sidecar).
    public var location: Location?
    /// The files the library uses for the asset, its primary first: its sidecar is beside one of them.
    public var filePaths: [String]
    /// Whether the primary file is the library's own copy (its sidecar is then the library's alone).
    public var isOwnedByLibrary: Bool
    /// The sidecar the library last read or wrote, its identity then, and why its last write failed.
    public var sidecar: SidecarState?
    public var sidecarIdentity: FileIdentity?
    /// Whether the library changed the annotations and has not written them to the sidecar yet.
    public var isWritePending: Bool
}

/// The XMP sidecars beside assets' files: which asset a sidecar belongs to, what the library last read or wrote in
/// each, and the write-backs due.
public struct SidecarRecords: Sendable {
    let writer: LibraryWriter

    /// The asset as sidecar work needs it; nil when it is gone.
    public func sidecarSubject(ofAsset id: String) async throws -> SidecarSubject? {
        try await writer.read { db in try Self.sidecarSubject(ofAsset: id, in: db) }
    }

    static func sidecarSubject(ofAsset id: String, in db: Database) throws -> SidecarSubject? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT \(AnnotationColumns.selection) FROM asset WHERE id = ?",
                arguments: [id])
        else { return nil }
        var annotations = AnnotationColumns.annotations(from: row)
        annotations.keywords = try AnnotationColumns.keywords(of: [id], in: db)[id] ?? []
        let location = try Row.fetchOne(
            db, sql: "SELECT latitude, longitude, altitude FROM asset WHERE id = ?",
            arguments: [id]
        ).flatMap(Self.location(from:))
        let order = Dictionary(uniqueKeysWithValues: ResourceType.allCases.enumerated().map { ($1.rawValue, $0) })
        let files = try Row.fetchAll(
            db, sql: "SELECT type, path, isOwnedByLibrary FROM resource WHERE assetId = ?",
            arguments: [id]
        ).sorted { order[$0[0] as String, default: 9] < order[$1[0] as String, default: 9] }
        let sidecar = try Row.fetchOne(
            db,
            sql: """
                SELECT path, writeProblem, device, inode, size, modificationTime FROM asset_sidecar WHERE assetId = ?
                """, arguments: [id])
        return SidecarSubject(
            assetId: id, annotations: annotations, location: location, filePaths: files.map { $0[1] },
            isOwnedByLibrary: files.first.map { $0[2] as Bool } ?? false,
            sidecar: sidecar.map { SidecarState(path: $0[0], writeProblem: $0[1]) },
            sidecarIdentity: sidecar.flatMap { SidecarRows.identity(from: $0, startingAt: 2) },
            isWritePending: try Bool.fetchOne(
                db, sql: "SELECT 1 FROM sidecar_write_pending WHERE assetId = ?",
                arguments: [id]) != nil)
    }

    /// The assets a sidecar at `path` may belong to: the one whose file it names (`NAME.EXT.xmp`), those of the
    /// files named `NAME.*` beside it (`NAME.xmp`), and the one that had it last; the most recently added first
    /// (a drop folder's name may have brought several photos in turn).
    public func assets(forSidecarAt path: String, exactMediaPath: String?, stem: String) async throws -> [String] {
        try await writer.read { db in
            var ids: [String] = []
            if let exactMediaPath {
                ids += try String.fetchAll(
                    db,
                    sql: """
                        SELECT assetId FROM resource WHERE path = ? UNION SELECT assetId FROM resource_file WHERE sourcePath = ?
                        """, arguments: [exactMediaPath, exactMediaPath])
            } else {
                ids += try String.fetchAll(
                    db, sql: "SELECT assetId FROM resource_file WHERE groupKey = ?",
                    arguments: [stem.lowercased()])
            }
            ids += try String.fetchAll(db, sql: "SELECT assetId FROM asset_sidecar WHERE path = ?", arguments: [path])
            var seen = Set<String>()
            let unique = ids.filter { seen.insert($0).inserted }
            let added = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, addedTime FROM asset WHERE id IN (\(databaseQuestionMarks(count: unique.count)))
                        """, arguments: StatementArguments(unique)
                ).map { ($0[0] as String, $0[1] as Double) })
            return unique.filter { added[$0] != nil }.sorted { added[$0]! > added[$1]! }
        }
    }

    /// The assets whose files are referenced in the source at `root` and have a sidecar on record, with its path
    /// and identity then: what start-up compares with the folder.
    public func recordedSidecars(inSource root: String) async throws -> [(
        assetId: String, path: String, identity: FileIdentity?
    )] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT s.assetId, s.path, s.device, s.inode, s.size, s.modificationTime FROM asset_sidecar s
                    WHERE s.assetId IN (SELECT assetId FROM resource_file WHERE sourceRoot = ?)
                    """, arguments: [root]
            ).map { ($0[0], $0[1], SidecarRows.identity(from: $0, startingAt: 2)) }
        }
    }

    /// Gives the asset the annotations its files and sidecar say (read by the caller), and the `location` its
    /// sidecar gives (nil: the location stays as it is), and records the sidecar (nil: it has none): one change
    /// event, `contentChanged: false`, when they change; none otherwise. The location is written as `updateAsset`
    /// writes one, its place named in the same transaction.
    @discardableResult
    public func applyAnnotations(
        _ annotations: Annotations, location: Location? = nil, fromSidecar sidecar: String?,
        identity: FileIdentity?, toAsset id: String
    ) async throws -> ChangeToken? {
        try await writer.recordChange { transaction in
            guard
                let row = try Row.fetchOne(
                    transaction.db, sql: "SELECT latitude, longitude, altitude FROM asset WHERE id = ?",
                    arguments: [id])
            else { return }
            try Self.recordSidecar(sidecar, identity: identity, writeProblem: nil, ofAsset: id, in: transaction.db)
            var changed = try transaction.writeAnnotations(annotations, ofAsset: id)
            if let location, location.isValid, !Self.isSamePosition(Self.location(from: row), location) {
                try transaction.updateAsset(id, AssetUpdate(location: .set(location)))
                changed = true
            }
            if changed { transaction.note(.asset, id, .changed) }
        }.committed.map { ChangeToken(libraryId: writer.libraryId, generation: $0.generation) }
    }

    /// The location of an asset row's `latitude, longitude, altitude`.
    static func location(from row: Row) -> Location? {
        guard let latitude = row[0] as Double?, let longitude = row[1] as Double? else { return nil }
        return Location(latitude: latitude, longitude: longitude, altitude: row[2])
    }

    /// Whether a sidecar's position is the one the library has, to the 10⁻⁸ minutes a sidecar is written with.
    static func isSamePosition(_ current: Location?, _ new: Location) -> Bool {
        guard let current else { return false }
        let altitudes = (current.altitude, new.altitude)
        return abs(current.latitude - new.latitude) < 1e-9 && abs(current.longitude - new.longitude) < 1e-9
            && (altitudes.0 == nil) == (altitudes.1 == nil) && abs((altitudes.0 ?? 0) - (altitudes.1 ?? 0)) < 0.001
    }

    /// Records what the library's write to an asset's sidecar gave: its path and identity, or why it failed.
    /// Either way the write is no longer due. Bookkeeping, not a change of the asset.
    public func recordSidecarWrite(path: String, identity: FileIdentity?, problem: String?, ofAsset id: String)
        async throws
    {
        try await writer.writeUnrecorded { db in
            try db.execute(sql: "DELETE FROM sidecar_write_pending WHERE assetId = ?", arguments: [id])
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM asset WHERE id = ?", arguments: [id]) != nil else { return }
            try Self.recordSidecar(path, identity: identity, writeProblem: problem, ofAsset: id, in: db)
        }
    }

    /// The assets whose changed annotations are not written to their sidecars yet (a crash came first).
    public func sidecarWritesDue() async throws -> [String] {
        try await writer.read { db in try String.fetchAll(db, sql: "SELECT assetId FROM sidecar_write_pending") }
    }

    /// Forgets the sidecar writes due (write-back is off: the library keeps its changes alone).
    public func dropSidecarWritesDue(_ ids: [String]) async throws {
        try await writer.writeUnrecorded { db in
            for id in ids {
                try db.execute(sql: "DELETE FROM sidecar_write_pending WHERE assetId = ?", arguments: [id])
            }
        }
    }

    /// Lists the asset's sidecar as due a write (its location changed through `updateAsset`), as a change of its
    /// annotations does.
    static func noteSidecarWriteDue(ofAsset id: String, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO sidecar_write_pending (assetId) VALUES (?)").execute(
            arguments: [id])
    }

    static func recordSidecar(
        _ path: String?, identity: FileIdentity?, writeProblem: String?, ofAsset id: String,
        in db: Database
    ) throws {
        guard let path else {
            try db.execute(sql: "DELETE FROM asset_sidecar WHERE assetId = ?", arguments: [id])
            return
        }
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO asset_sidecar (assetId, path, device, inode, size, modificationTime, writeProblem)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                id, path, identity.map { Int64(bitPattern: $0.device) }, identity.map { Int64(bitPattern: $0.inode) },
                identity?.size, identity?.modificationTime, writeProblem,
            ])
    }
}
