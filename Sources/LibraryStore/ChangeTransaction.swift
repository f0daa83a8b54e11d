import Foundation
import GRDB
import PhotoModel

/// What a committed `PerformChanges` call produced.
public struct ChangeOutcome: Sendable {
    public var token: ChangeToken
    /// Each placeholder and the real id it became.
    public var created: [String: String]
    /// For each `createAsset` change (by index): the asset's id, and whether it was a duplicate of an existing asset.
    public var assets: [Int: (id: String, isDuplicate: Bool)]
    /// Files owned by the library whose assets were purged: the caller removes them after the commit.
    public var purgedFiles: [String]
}

extension LibraryDatabase {
    /// Applies `changes` in one write transaction that also records one change-log entry: all or nothing.
    ///
    /// `drafts` holds, for each `createAsset` change by index, the asset the caller prepared from its file.
    public func performChanges(_ changes: [LibraryChange], drafts: [Int: AssetDraft] = [:]) async throws -> ChangeOutcome {
        let now = Date()
        let feed = self.feed, observedResults = self.observedResults
        return try await writer.write { db in
            var transaction = ChangeTransaction(db: db, now: now.timeIntervalSince1970)
            for (index, change) in changes.enumerated() {
                try transaction.apply(change, index: index, draft: drafts[index])
            }
            let committed = try transaction.recordChangeLog()
            db.afterNextTransaction { db in
                observedResults.advance(past: committed, db: db)
                feed.publish(committed)
            }
            return ChangeOutcome(token: ChangeToken(libraryId: libraryId, generation: committed.generation),
                                 created: transaction.placeholders, assets: transaction.createdAssets,
                                 purgedFiles: transaction.purgedFiles)
        }
    }
}

/// The work of one `PerformChanges` call inside its write transaction.
struct ChangeTransaction {
    let db: Database
    let now: Double
    var placeholders: [String: String] = [:]
    var createdAssets: [Int: (id: String, isDuplicate: Bool)] = [:]
    var purgedFiles: [String] = []
    private var objects: [ObjectKey: ObjectChange] = [:]
    private var objectOrder: [ObjectKey] = []
    /// Whether any object changed so far (a transaction with no changes records no change-log entry).
    var hasChanges: Bool { !objectOrder.isEmpty }

    private struct ObjectKey: Hashable { let kind: ObjectKind; let id: String }

    init(db: Database, now: Double) {
        self.db = db
        self.now = now
    }

    mutating func apply(_ change: LibraryChange, index: Int, draft: AssetDraft?) throws {
        switch change {
        case .createAsset(_, let placeholder):
            guard let draft else { throw LibraryError.invalidChange(index: index, reason: "the file was not prepared") }
            try claim(placeholder, index: index)
            let (id, isDuplicate) = try insertAsset(draft)
            createdAssets[index] = (id, isDuplicate)
            if let placeholder { placeholders[placeholder] = id }
            if !isDuplicate { note(.asset, id, .inserted, contentChanged: true) }
        case .updateAsset(let target, let update):
            let id = try resolveAsset(target, index: index)
            try updateAsset(id, update)
            note(.asset, id, .changed)
        case .deleteAssets(let ids, let permanently):
            for id in try ids.map({ try resolveAsset($0, index: index) }) {
                if permanently {
                    purgedFiles += try String.fetchAll(db, sql: "SELECT path FROM resource WHERE assetId = ? AND isOwnedByLibrary",
                                                       arguments: [id])
                    try noteAlbums(containing: id)
                    try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [id])
                    note(.asset, id, .removed)
                } else {
                    try db.execute(sql: "UPDATE asset SET trashedTime = ? WHERE id = ? AND trashedTime IS NULL", arguments: [now, id])
                    if db.changesCount > 0 {
                        try noteAlbums(containing: id)
                        note(.asset, id, .changed)
                    }
                }
            }
        case .restoreAssets(let ids):
            for id in try ids.map({ try resolveAsset($0, index: index) }) {
                try db.execute(sql: "UPDATE asset SET trashedTime = NULL WHERE id = ? AND trashedTime IS NOT NULL", arguments: [id])
                if db.changesCount > 0 {
                    try noteAlbums(containing: id)
                    note(.asset, id, .changed)
                }
            }
        case .createAlbum(let title, let placeholder, let parent):
            try createCollection(.albumRegular, title: title, placeholder: placeholder, parent: parent, index: index)
        case .createFolder(let title, let placeholder, let parent):
            try createCollection(.folderRegular, title: title, placeholder: placeholder, parent: parent, index: index)
        case .updateCollection(let target, let title):
            let id = try resolveCollection(target, index: index, allowed: [.album, .folder])
            try db.execute(sql: "UPDATE collection SET title = ? WHERE id = ?", arguments: [title, id])
            note(.collection, id, .changed)
        case .addAssets(let target, let ids):
            let album = try resolveCollection(target, index: index, allowed: [.album])
            let assetIds = try ids.map { try resolveAsset($0, index: index) }
            var position = try Int.fetchOne(db, sql: "SELECT coalesce(max(position), -1) FROM album_asset WHERE albumId = ?",
                                            arguments: [album])!
            var added = false
            for assetId in assetIds {
                position += 1
                try db.execute(sql: "INSERT OR IGNORE INTO album_asset (albumId, assetId, position) VALUES (?, ?, ?)",
                               arguments: [album, assetId, position])
                added = added || db.changesCount > 0
            }
            if added { note(.collection, album, .changed) }
        case .removeAssets(let target, let ids):
            let album = try resolveCollection(target, index: index, allowed: [.album])
            var removed = false
            for assetId in try ids.map({ try resolveAsset($0, index: index) }) {
                try db.execute(sql: "DELETE FROM album_asset WHERE albumId = ? AND assetId = ?", arguments: [album, assetId])
                removed = removed || db.changesCount > 0
            }
            if removed { note(.collection, album, .changed) }
        case .deleteCollections, .insertAssets, .moveAssets, .addChildCollections, .removeChildCollections,
             .moveChildCollections:
            throw LibraryError.invalidChange(index: index, reason: "\(change.op) is not supported by this version of photolibd")
        }
    }

    /// Appends this transaction's entry to the change log and advances the generation.
    mutating func recordChangeLog() throws -> CommittedChange {
        try db.execute(sql: "UPDATE library_info SET generation = generation + 1")
        let generation = try Int64.fetchOne(db, sql: "SELECT generation FROM library_info")!
        try db.execute(sql: "INSERT INTO change_log (generation, committedTime) VALUES (?, ?)", arguments: [generation, now])
        let changes = objectOrder.compactMap { objects[$0] }
        for object in changes {
            try db.execute(sql: """
                INSERT INTO change_log_object (generation, objectKind, objectId, change, contentChanged) VALUES (?, ?, ?, ?, ?)
                """, arguments: [generation, object.kind.rawValue, object.id, object.change.rawValue, object.contentChanged])
        }
        return CommittedChange(generation: generation, objects: changes)
    }

    // MARK: - Objects

    func insertAsset(_ draft: AssetDraft) throws -> (id: String, isDuplicate: Bool) {
        if let existing = try String.fetchOne(db, sql: "SELECT id FROM asset WHERE contentHash = ?", arguments: [draft.contentHash]) {
            return (existing, true)
        }
        guard let primary = draft.resources.first else {
            throw LibraryError.invalidParameter("an asset needs a resource")
        }
        let id = UUID().uuidString.lowercased()
        try db.execute(sql: """
            INSERT INTO asset (id, mediaType, mediaSubtypes, pixelWidth, pixelHeight, orientation, creationTime,
              creationOffset, creationDateSource, modificationTime, addedTime, latitude, longitude, altitude, duration,
              originalFilename, fileSize, contentHash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [
                id, draft.mediaType.photoKitValue, draft.mediaSubtypes.rawValue, draft.pixelWidth, draft.pixelHeight,
                draft.orientation, draft.creationDate?.secondsSince1970, draft.creationDate?.utcOffsetSeconds,
                draft.creationDateSource?.rawValue, now, now, draft.location?.latitude, draft.location?.longitude,
                draft.location?.altitude, draft.duration, primary.originalFilename, primary.fileSize, draft.contentHash,
            ])
        for resource in draft.resources {
            try db.execute(sql: """
                INSERT INTO resource (assetId, type, originalFilename, mimeType, fileSize, path, isOwnedByLibrary)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id, resource.type.rawValue, resource.originalFilename, resource.mimeType,
                                 resource.fileSize, resource.path, resource.isOwnedByLibrary])
        }
        return (id, false)
    }

    private func updateAsset(_ id: String, _ update: AssetUpdate) throws {
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
        case .cleared: assignments.append("latitude = NULL, longitude = NULL, altitude = NULL")
        case .set(let location):
            assignments.append("latitude = ?, longitude = ?, altitude = ?")
            arguments += [location.latitude, location.longitude, location.altitude]
        }
        try db.execute(sql: "UPDATE asset SET \(assignments.joined(separator: ", ")) WHERE id = ?", arguments: arguments + [id])
    }

    private mutating func createCollection(_ subtype: CollectionSubtype, title: String, placeholder: String?,
                                           parent: String?, index: Int) throws {
        try claim(placeholder, index: index)
        let parentId = try parent.map { try resolveCollection($0, index: index, allowed: [.folder]) }
        let id = UUID().uuidString.lowercased()
        let position = try Int.fetchOne(db, sql: "SELECT coalesce(max(position), 0) + 1 FROM collection")!
        try db.execute(sql: """
            INSERT INTO collection (id, kind, subtype, title, parentId, position, createdTime) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [id, subtype.kind.rawValue, subtype.rawValue, title, parentId, position, now])
        if let placeholder { placeholders[placeholder] = id }
        note(.collection, id, .inserted)
        if let parentId { note(.collection, parentId, .changed) }
    }

    // MARK: - Ids

    private func claim(_ placeholder: String?, index: Int) throws {
        if let placeholder, placeholders[placeholder] != nil {
            throw LibraryError.invalidChange(index: index, reason: "placeholder '\(placeholder)' is used twice")
        }
    }

    private func resolve(_ id: String, index: Int) throws -> String {
        guard id.hasPrefix("@") else { return id }
        guard let real = placeholders[id] else {
            throw LibraryError.invalidChange(index: index, reason: "placeholder '\(id)' is not created by an earlier change")
        }
        return real
    }

    private func resolveAsset(_ id: String, index: Int) throws -> String {
        let real = try resolve(id, index: index)
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM asset WHERE id = ?", arguments: [real]) != nil else {
            throw LibraryError.notFound(id: id, index: index)
        }
        return real
    }

    private func resolveCollection(_ id: String, index: Int, allowed: Set<CollectionKind>) throws -> String {
        let real = try resolve(id, index: index)
        guard let kind = try String.fetchOne(db, sql: "SELECT kind FROM collection WHERE id = ?", arguments: [real])
            .flatMap(CollectionKind.init(rawValue:)) else {
            throw LibraryError.notFound(id: id, index: index)
        }
        guard allowed.contains(kind) else {
            let reason = kind == .smartAlbum || kind == .moment
                ? "'\(id)' is a \(kind.rawValue) and read-only"
                : "'\(id)' is a \(kind.rawValue), expected \(allowed.map(\.rawValue).sorted().joined(separator: " or "))"
            throw LibraryError.invalidChange(index: index, reason: reason)
        }
        return real
    }

    // MARK: - Change log

    private mutating func noteAlbums(containing assetId: String) throws {
        for album in try String.fetchAll(db, sql: "SELECT albumId FROM album_asset WHERE assetId = ?", arguments: [assetId]) {
            note(.collection, album, .changed)
        }
    }

    /// Merges one object's change into what this transaction reports (inserted then changed stays inserted).
    mutating func note(_ kind: ObjectKind, _ id: String, _ change: ObjectChangeKind, contentChanged: Bool = false) {
        let key = ObjectKey(kind: kind, id: id)
        guard let existing = objects[key] else {
            objects[key] = ObjectChange(id: id, kind: kind, change: change, contentChanged: contentChanged)
            objectOrder.append(key)
            return
        }
        switch (existing.change, change) {
        case (.inserted, .removed): objects[key] = nil
        case (.inserted, _): break
        default: objects[key] = ObjectChange(id: id, kind: kind, change: change,
                                             contentChanged: existing.contentChanged || contentChanged)
        }
    }
}
