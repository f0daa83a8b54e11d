import Foundation
import GRDB
import PhotoModel

/// What a committed `PerformChanges` call produced.
public struct ChangeOutcome: Sendable {
    public var token: ChangeToken
    /// Each placeholder and the real id it became.
    public var created: [String: String]
    /// For each `createAsset` change (by index): `inserted`, or `duplicate` of an existing asset.
    public var assets: [Int: IngestOutcome]
    /// Files owned by the library that it no longer uses (of purged assets, of replaced and reverted edits):
    /// the caller removes them after the commit, then `forgetRemovedFiles` (the commit listed them for a start
    /// after a crash to remove).
    public var purgedFiles: [String]
}

extension LibraryDatabase {
    /// Applies `changes` in one write transaction that also records one change-log entry: all or nothing.
    ///
    /// `drafts` holds, for each `createAsset` change by index, the asset the caller prepared from its file, and
    /// `newAssetIds` the id its new asset gets when the change chose none (else a new one); `edits`, for each
    /// `editAsset` change, the edit whose rendered file the caller put in the store.
    public func performChanges(
        _ changes: [LibraryChange], drafts: [Int: AssetDraft] = [:], newAssetIds: [Int: String] = [:],
        edits: [Int: AssetEditDraft] = [:]
    ) async throws -> ChangeOutcome {
        try await commitTransaction { transaction in
            for (index, change) in changes.enumerated() {
                try transaction.apply(
                    change, index: index, draft: drafts[index], newAssetId: newAssetIds[index],
                    edit: edits[index])
            }
        }
    }

    /// Runs `body` on one `ChangeTransaction` in one write transaction and commits it as one change-log entry.
    func commitTransaction(_ body: @escaping @Sendable (inout ChangeTransaction) throws -> Void) async throws
        -> ChangeOutcome
    {
        let (made, committed) = try await writer.recordChange(recording: .always) { transaction in
            try body(&transaction)
            try transaction.listPurgedFiles()
            return (transaction.placeholders, transaction.createdAssets, transaction.purgedFiles)
        }
        return ChangeOutcome(
            token: ChangeToken(libraryId: libraryId, generation: committed!.generation),
            created: made.0, assets: made.1, purgedFiles: made.2)
    }
}

/// The work of one `PerformChanges` call inside its write transaction.
struct ChangeTransaction {
    let db: Database
    let now: Double
    /// Names the locations this transaction writes; nil while the place table is missing.
    let places: (any PlaceResolving)?
    var placeholders: [String: String] = [:]
    var createdAssets: [Int: IngestOutcome] = [:]
    var purgedFiles: [String] = []
    /// The files referenced in place this transaction stops pointing at, for the change feed.
    var referencedFilesLeft: [ReferencedFileLeft] = []
    var objects: [ObjectKey: ObjectChange] = [:]
    var objectOrder: [ObjectKey] = []
    /// Whether any object changed so far (a transaction with no changes records no change-log entry).
    var hasChanges: Bool { !objectOrder.isEmpty }

    struct ObjectKey: Hashable { let kind: ObjectKind; let id: String }

    init(db: Database, now: Double, places: (any PlaceResolving)?) {
        self.db = db
        self.now = now
        self.places = places
    }

    mutating func apply(
        _ change: LibraryChange, index: Int, draft: AssetDraft?, newAssetId: String? = nil,
        edit prepared: AssetEditDraft? = nil
    ) throws {
        switch change {
        case .createAsset(let creation):
            guard let draft else { throw LibraryError.invalidChange(index: index, reason: "the file was not prepared") }
            try claim(creation.placeholder, index: index)
            try claim(chosenId: creation.id, index: index)
            let (id, isDuplicate) = try insertAsset(draft, id: creation.id ?? newAssetId)
            createdAssets[index] = isDuplicate ? .duplicate(assetId: id, libraryCopy: nil) : .inserted(assetId: id)
            if let placeholder = creation.placeholder { placeholders[placeholder] = id }
            // A duplicate is the asset that has its content: later changes that name the chosen id reach it.
            if let chosen = creation.id, chosen != id { placeholders[chosen] = id }
            if !isDuplicate { note(.asset, id, .inserted, contentChanged: true) }
        case .updateAsset(let target, let update):
            let id = try resolveAsset(target, index: index)
            try updateAsset(id, update)
            if update.changesAnnotations { try updateAnnotations(ofAsset: id, with: update) }
            if update.location != .unchanged { try SidecarRecords.noteSidecarWriteDue(ofAsset: id, in: db) }
            note(.asset, id, .changed)
        case .deleteAssets(let ids, let permanently):
            for id in try ids.map({ try resolveAsset($0, index: index) }) {
                if permanently {
                    try purgeAsset(id)
                } else {
                    try db.cachedStatement(sql: "UPDATE asset SET trashedTime = ? WHERE id = ? AND trashedTime IS NULL")
                        .execute(arguments: [now, id])
                    if db.changesCount > 0 { note(.asset, id, .changed) }
                }
            }
        case .restoreAssets(let ids):
            for id in try ids.map({ try resolveAsset($0, index: index) }) {
                try db.cachedStatement(
                    sql: "UPDATE asset SET trashedTime = NULL WHERE id = ? AND trashedTime IS NOT NULL"
                )
                .execute(arguments: [id])
                if db.changesCount > 0 { note(.asset, id, .changed) }
            }
        case .mergeDuplicates(let ids):
            try mergeDuplicates(ids.map { try resolveAsset($0, index: index) }, index: index)
        case .createAlbum(let title, let placeholder, let parent, let id):
            try createCollection(
                .albumRegular, title: title, placeholder: placeholder, parent: parent, id: id, index: index)
        case .createFolder(let title, let placeholder, let parent, let id):
            try createCollection(
                .folderRegular, title: title, placeholder: placeholder, parent: parent, id: id, index: index)
        case .updateCollection(let target, let title):
            let id = try resolveCollection(target, index: index, allowed: [.album, .folder])
            try db.execute(sql: "UPDATE collection SET title = ? WHERE id = ?", arguments: [title, id])
            note(.collection, id, .changed)
        case .deleteCollections(let ids):
            try deleteCollections(ids, index: index)
        case .addAssets(let target, let ids):
            try addAssets(ids, to: target, index: index)
        case .insertAssets(let target, let ids, let indexes):
            try insertAssets(ids, at: indexes, into: target, index: index)
        case .removeAssets(let target, let ids):
            let album = try resolveCollection(target, index: index, allowed: [.album])
            for assetId in try ids.map({ try resolveAsset($0, index: index) }) {
                try db.execute(
                    sql: "DELETE FROM album_asset WHERE albumId = ? AND assetId = ?", arguments: [album, assetId])
            }
        case .moveAssets(let target, let indexes, let toIndex):
            try moveAssets(at: indexes, to: toIndex, in: target, index: index)
        case .addChildCollections(let target, let ids):
            try addChildCollections(ids, to: target, index: index)
        case .removeChildCollections(let target, let ids):
            try removeChildCollections(ids, from: target, index: index)
        case .moveChildCollections(let target, let indexes, let toIndex):
            try moveChildCollections(at: indexes, to: toIndex, in: target, index: index)
        case .editAsset(let target, _, _, _):
            try edit(target, with: prepared, index: index)
        case .revertAsset(let target):
            try revert(target, index: index)
        }
    }

    /// Deletes an asset for good; its files owned by the library are left for the caller to remove.
    mutating func purgeAsset(_ id: String) throws {
        purgedFiles += try String.fetchAll(
            db,
            sql: """
                SELECT path FROM resource WHERE assetId = ? AND isOwnedByLibrary UNION ALL SELECT path FROM asset_edit WHERE assetId = ?
                """, arguments: [id, id])
        try db.cachedStatement(sql: "DELETE FROM asset WHERE id = ?").execute(arguments: [id])
        note(.asset, id, .removed)
    }

    /// Appends this transaction's entry to the change log and advances the generation.
    mutating func recordChangeLog() throws -> CommittedChange {
        if try DuplicateGroups.regroupCaptured(db) { try noteDuplicatesChanged() }
        for object in try ChangeCapture.collect(db, now: now) {
            note(object.kind, object.id, object.change)
        }
        try noteFoldersOfChangedCollections()
        let generation = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    UPDATE library_info SET generation = generation + 1 RETURNING generation
                    """))!
        try db.cachedStatement(sql: "INSERT INTO change_log (generation, committedTime) VALUES (?, ?)")
            .execute(arguments: [generation, now])
        var recorded = Set<ObjectKey>()
        let changes = objectOrder.filter { recorded.insert($0).inserted }.compactMap { objects[$0] }
        for object in changes {
            try db.cachedStatement(
                sql: """
                    INSERT INTO change_log_object (generation, objectKind, objectId, change, contentChanged) VALUES (?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                generation, object.kind.rawValue, object.id, object.change.rawValue, object.contentChanged,
            ])
        }
        return CommittedChange(generation: generation, objects: changes, referencedFilesLeft: referencedFilesLeft)
    }

    // MARK: - Objects

    /// Inserts the asset `draft` describes, with the id `chosen` (else a new one), unless an asset has its content.
    func insertAsset(_ draft: AssetDraft, id chosen: String? = nil) throws -> (id: String, isDuplicate: Bool) {
        if let existing = try String.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM asset WHERE contentHash = ?"),
            arguments: [draft.contentHash])
        {
            return (existing, true)
        }
        guard let primary = draft.resources.first else {
            throw LibraryError.invalidParameter("an asset needs a resource")
        }
        let id = chosen ?? UUID().uuidString.lowercased()
        let place = try PlaceColumns(of: draft.location, places: places, in: db)
        // Cached: preparing a write to `asset` compiles its triggers, which is far dearer than running it.
        try db.cachedStatement(
            sql: """
                INSERT INTO asset (id, mediaType, mediaSubtypes, pixelWidth, pixelHeight, orientation, creationTime,
                  creationOffset, creationDateSource, modificationTime, addedTime, latitude, longitude, altitude, duration,
                  burstIdentifier, originalFilename, fileSize, contentHash, \(CameraColumns.names.joined(separator: ", ")),
                  cameraDataRead, placeId, placeLookedUp)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
                """
        ).execute(
            arguments: StatementArguments(
                [
                    id, draft.mediaType.photoKitValue, draft.mediaSubtypes.rawValue, draft.pixelWidth,
                    draft.pixelHeight,
                    draft.orientation, draft.creationDate?.secondsSince1970, draft.creationDate?.utcOffsetSeconds,
                    draft.creationDateSource?.rawValue, now, now, draft.location?.latitude, draft.location?.longitude,
                    draft.location?.altitude, draft.duration, draft.burstIdentifier, primary.originalFilename,
                    primary.fileSize,
                    draft.contentHash,
                ] + CameraColumns.values(of: draft.camera) + [place.placeId, place.isLookedUp]))
        for resource in draft.resources {
            try db.cachedStatement(
                sql: """
                    INSERT INTO resource (assetId, type, originalFilename, mimeType, fileSize, path, isOwnedByLibrary)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                id, resource.type.rawValue, resource.originalFilename, resource.mimeType,
                resource.fileSize, resource.path, resource.isOwnedByLibrary,
            ])
        }
        if !draft.annotations.isEmpty { try writeAnnotations(draft.annotations, ofAsset: id) }
        return (id, false)
    }

    func updateAsset(_ id: String, _ update: AssetUpdate) throws {
        var assignments = ["modificationTime = ?"]
        var arguments: StatementArguments = [now]
        if let isFavorite = update.isFavorite {
            assignments.append("isFavorite = ?")
            arguments += [isFavorite]
        }
        if let isHidden = update.isHidden {
            assignments.append("isHidden = ?")
            arguments += [isHidden]
        }
        switch update.creationDate {
        case .unchanged: break
        case .cleared: assignments.append("creationTime = NULL, creationOffset = NULL, creationDateSource = NULL")
        case .set(let date):
            assignments.append("creationTime = ?, creationOffset = ?, creationDateSource = ?")
            arguments += [date.secondsSince1970, date.utcOffsetSeconds, CreationDateSource.user.rawValue]
        }
        switch update.location {
        case .unchanged: break
        case .cleared:
            assignments.append("latitude = NULL, longitude = NULL, altitude = NULL, placeId = NULL, placeLookedUp = 1")
        case .set(let location):
            let place = try PlaceColumns(of: location, places: places, in: db)
            assignments.append("latitude = ?, longitude = ?, altitude = ?, placeId = ?, placeLookedUp = ?")
            arguments += [location.latitude, location.longitude, location.altitude, place.placeId, place.isLookedUp]
        }
        try db.cachedStatement(sql: "UPDATE asset SET \(assignments.joined(separator: ", ")) WHERE id = ?")
            .execute(arguments: arguments + [id])
    }

    // MARK: - Ids

    func claim(_ placeholder: String?, index: Int) throws {
        if let placeholder, placeholders[placeholder] != nil {
            throw LibraryError.invalidChange(index: index, reason: "placeholder '\(placeholder)' is used twice")
        }
    }

    /// Refuses a client-chosen id that an asset or collection has, or an earlier change of the call claimed.
    func claim(chosenId id: String?, index: Int) throws {
        guard let id else { return }
        let inUse =
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM asset WHERE id = ?1) OR EXISTS (SELECT 1 FROM collection WHERE id = ?1)
                        """), arguments: [id]) ?? false
        guard !inUse, placeholders[id] == nil else {
            throw LibraryError.invalidChange(index: index, reason: "id '\(id)' is in use")
        }
    }

    func resolve(_ id: String, index: Int) throws -> String {
        guard id.hasPrefix("@") else { return placeholders[id] ?? id }
        guard let real = placeholders[id] else {
            throw LibraryError.invalidChange(
                index: index, reason: "placeholder '\(id)' is not created by an earlier change")
        }
        return real
    }

    func resolveAsset(_ id: String, index: Int) throws -> String {
        let real = try resolve(id, index: index)
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM asset WHERE id = ?"), arguments: [real]) != nil
        else {
            throw LibraryError.notFound(id: id, index: index)
        }
        return real
    }

    func resolveCollection(_ id: String, index: Int, allowed: Set<CollectionKind>) throws -> String {
        let real = try resolve(id, index: index)
        guard
            let kind = try String.fetchOne(db, sql: "SELECT kind FROM collection WHERE id = ?", arguments: [real])
                .flatMap(CollectionKind.init(rawValue:))
        else {
            throw LibraryError.notFound(id: id, index: index)
        }
        guard allowed.contains(kind) else {
            let reason =
                kind == .smartAlbum || kind == .moment
                ? "'\(id)' is a \(kind.rawValue) and read-only"
                : "'\(id)' is \(kind == .album ? "an" : "a") \(kind.rawValue), expected "
                    + allowed.map(\.rawValue).sorted().joined(separator: " or ")
            throw LibraryError.invalidChange(index: index, reason: reason)
        }
        return real
    }
}
