import Foundation
import GRDB
import PhotoModel

/// The single front door to a library's SQLite database (WAL mode, one pool per process).
public struct LibraryDatabase: Sendable {
    let writer: LibraryWriter
    /// This library's identity, part of every change token.
    public var libraryId: String { writer.libraryId }
    /// Committed transactions, in commit order, for observers in this process.
    public var feed: ChangeFeed { writer.feed }
    /// The results observers follow, advanced at each commit.
    public var observedResults: ObservedResults { writer.observedResults }

    /// Opens (creating and migrating as needed) the database file at `path`; `places` names the locations written,
    /// in the same transaction (without it, located assets wait for `recordPlaces`).
    public init(path: String, places: (any PlaceResolving)? = nil) throws {
        writer = try LibraryWriter(path: path, places: places)
    }

    /// Assets' edits.
    public var edits: EditRecords { EditRecords(writer: writer) }
    /// Camera data read after import.
    public var cameraData: CameraDataRecords { CameraDataRecords(writer: writer) }
    /// The change log behind change tokens.
    public var history: ChangeHistory { ChangeHistory(writer: writer) }
    /// Store files no commit uses any more.
    public var filesToRemove: RemovedFileRecords { RemovedFileRecords(writer: writer) }
    /// The files the library took from import sources.
    public var sourceFiles: SourceFileRecords { SourceFileRecords(writer: writer) }
    /// The files of import sources not taken because the library holds their content.
    public var sourceDuplicates: SourceDuplicateRecords { SourceDuplicateRecords(writer: writer) }
    /// The store copies not yet known to be synced.
    public var unsyncedCopies: UnsyncedCopyRecords { UnsyncedCopyRecords(writer: writer) }
    /// The XMP sidecars beside assets' files.
    public var sidecars: SidecarRecords { SidecarRecords(writer: writer) }
    /// Perceptual fingerprints and groups of duplicates.
    public var duplicates: DuplicateRecords { DuplicateRecords(writer: writer) }
    /// Assets' places.
    public var places: PlaceRecords { PlaceRecords(writer: writer) }

    /// Starts following `queries` (each once, however many observers); returns when their results are loaded.
    /// Balance with `observedResults.release`.
    public func track(_ queries: [ObservedQuery]) async throws {
        try await writer.track(queries)
    }

    /// The change token of the current state.
    public func currentToken() async throws -> ChangeToken {
        try await writer.read { db in try token(db) }
    }

    func token(_ db: Database) throws -> ChangeToken {
        ChangeToken(
            libraryId: libraryId, generation: try Int64.fetchOne(db, sql: "SELECT generation FROM library_info")!)
    }

    /// One page of assets and the size of the whole result, read at one consistent state.
    public func fetchAssets(
        _ query: AssetQuery, offset: Int = 0, pageSize: Int = 500,
        includeResources: Bool = false
    ) async throws -> AssetPage {
        try Self.checkPage(offset: offset, pageSize: pageSize)
        let now = Date()
        return try await writer.read { db in
            var assets: [Asset] = []
            let (count, token) = try readPage(
                query, now: now, offset: offset, pageSize: pageSize, includeResources: includeResources,
                batchSize: pageSize, in: db
            ) { assets += $0 }
            return AssetPage(count: count, assets: assets, token: token)
        }
    }

    /// Reads a page as `fetchAssets(_:offset:pageSize:includeResources:)` does, handing its assets to `receive`
    /// `batchSize` at a time as their rows are read, so that the first can be sent on before the last is read.
    /// Returns the size of the whole result and the token of the state read.
    public func fetchAssets(
        _ query: AssetQuery, offset: Int = 0, pageSize: Int = 500, includeResources: Bool = false,
        inBatchesOf batchSize: Int,
        receiving receive: @escaping @Sendable ([Asset]) throws -> Void
    ) async throws -> (count: Int, token: ChangeToken) {
        try Self.checkPage(offset: offset, pageSize: pageSize)
        let now = Date()
        return try await writer.read { db in
            try readPage(
                query, now: now, offset: offset, pageSize: pageSize, includeResources: includeResources,
                batchSize: batchSize, in: db, receiving: receive)
        }
    }

    private static func checkPage(offset: Int, pageSize: Int) throws {
        guard offset >= 0 else { throw LibraryError.invalidParameter("offset") }
        guard pageSize >= 0 else { throw LibraryError.invalidParameter("pageSize") }
    }

    private func readPage(
        _ query: AssetQuery, now: Date, offset: Int, pageSize: Int, includeResources: Bool, batchSize: Int,
        in db: Database, receiving receive: ([Asset]) throws -> Void
    ) throws -> (count: Int, token: ChangeToken) {
        let selection = try AssetSelection.compiling(query, now: now, in: db)
        // A cursor reads each row in place, without copying it first.
        let rows = try AssetRecord.fetchCursor(
            db, sql: selection.pageSQL(columns: AssetRecord.selection, offset: offset, count: pageSize),
            arguments: selection.arguments
        )
        var batch: [Asset] = [], rowCount = 0
        while let record = try rows.next() {
            batch.append(record.asset)
            rowCount += 1
            if batch.count == max(batchSize, 1) {
                try receive(completed(batch, includeResources: includeResources, in: db))
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try receive(completed(batch, includeResources: includeResources, in: db)) }
        let count =
            try selection.count(ofFirstPage: rowCount, pageSize: pageSize, offset: offset) ?? selection.count(db)
        return (count, try token(db))
    }

    /// `assets` with their keywords, and with their resources and sidecar states when asked for.
    private func completed(_ assets: [Asset], includeResources: Bool, in db: Database) throws -> [Asset] {
        var assets = assets
        let ids = assets.map(\.id)
        let keywords = try AnnotationColumns.keywords(of: ids, in: db)
        for index in assets.indices { assets[index].annotations.keywords = keywords[assets[index].id] ?? [] }
        if includeResources {
            let resources = try ResourceRecord.resources(of: ids, in: db)
            let sidecars = try SidecarRows.states(of: ids, in: db)
            for index in assets.indices {
                assets[index].resources = resources[assets[index].id] ?? []
                assets[index].sidecar = sidecars[assets[index].id]
            }
        }
        return assets
    }
}

/// One page of a `FetchAssets` result.
public struct AssetPage: Sendable {
    public var count: Int
    public var assets: [Asset]
    public var token: ChangeToken

    public init(count: Int, assets: [Asset], token: ChangeToken) {
        self.count = count
        self.assets = assets
        self.token = token
    }
}

/// One page of a `FetchCollections` result.
public struct CollectionPage: Sendable {
    public var count: Int
    public var collections: [AssetCollection]
    public var token: ChangeToken
}

extension LibraryDatabase {
    /// Returns once the writer has run an empty step: proof that writes are not stuck.
    public func answersWrites() async throws {
        try await writer.answersWrites()
    }

    /// How many assets the user library holds, the trash not counted.
    public func userLibraryAssetCount() async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset WHERE trashedTime IS NULL") ?? 0
        }
    }

    /// Deletes for good, as one change event, the assets trashed before `cutoff`; nil when none had expired.
    /// The outcome's `purgedFiles` are the library's own files of those assets, for the caller to remove.
    public func purgeTrash(trashedBefore cutoff: Date) async throws -> ChangeOutcome? {
        let expired = "SELECT id FROM asset WHERE trashedTime < ? ORDER BY trashedTime"
        let cutoffTime = cutoff.timeIntervalSince1970
        guard
            try await writer.read({ db in
                try String.fetchOne(db, sql: expired + " LIMIT 1", arguments: [cutoffTime]) != nil
            })
        else { return nil }
        return try await commitTransaction { transaction in
            for id in try String.fetchAll(transaction.db, sql: expired, arguments: [cutoffTime]) {
                try transaction.purgeAsset(id)
            }
        }
    }

    /// Records, as a change of the Recently Added smart album, that the assets added on days before the album's
    /// window at `now` have left it. Membership there changes with the date alone, so without this entry no
    /// observer or catching-up client would learn of it. Returns nil when no shown asset left.
    public func ageRecentlyAdded(now: Date) async throws -> ChangeToken? {
        let firstDay = AssetRules.firstRecentDay(now: now)
        return try await writer.recordChange(now: now) { transaction in
            let db = transaction.db
            let announced = try Int.fetchOne(db, sql: "SELECT recentlyAddedFirstDay FROM library_info")
            guard announced != firstDay else { return }
            try db.execute(sql: "UPDATE library_info SET recentlyAddedFirstDay = ?", arguments: [firstDay])
            // A new library, or a clock set back: nothing has left that observers were told was in.
            guard let announced, announced < firstDay else { return }
            let leaving =
                "SELECT EXISTS (SELECT 1 FROM asset WHERE addedDay >= ? AND addedDay < ? AND "
                + AssetRules.visibility().joined(separator: " AND ") + ")"
            guard try Bool.fetchOne(db, sql: leaving, arguments: [announced, firstDay]) == true else { return }
            let album = try String.fetchOne(
                db, sql: "SELECT id FROM collection WHERE subtype = ?",
                arguments: [CollectionSubtype.smartAlbumRecentlyAdded.rawValue])!
            transaction.note(.collection, album, .changed)
        }.committed.map { ChangeToken(libraryId: libraryId, generation: $0.generation) }
    }

    /// What kept a write from the database when the fault may pass by itself (its disk full, read-only or failing),
    /// nil for any other error: the work is worth trying again later rather than reporting as failed.
    public static func storageFault(in error: any Error) -> String? {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL: return "the library's disk is full"
        case .SQLITE_READONLY: return "the library is read-only"
        case .SQLITE_IOERR, .SQLITE_CANTOPEN: return "the library's disk gave an I/O error"
        default: return nil
        }
    }

    /// One page of collections and the size of the whole result, read at one consistent state.
    public func fetchCollections(_ query: CollectionQuery, offset: Int = 0, pageSize: Int = 500) async throws
        -> CollectionPage
    {
        guard offset >= 0 else { throw LibraryError.invalidParameter("offset") }
        guard pageSize >= 0 else { throw LibraryError.invalidParameter("pageSize") }
        let now = Date()
        return try await writer.read { db in
            let all = try CollectionFetch.collections(matching: query, now: now, db)
            let page = all.dropFirst(offset).prefix(pageSize)
            return CollectionPage(count: all.count, collections: Array(page), token: try token(db))
        }
    }

    /// Commits a prepared file as a new asset, a new resource of its group's asset, or nothing new.
    ///
    /// `fileExists` tells whether a referenced file is still on disk (a file whose content reappears elsewhere takes
    /// over its asset only when it is gone).
    public func ingest(_ request: IngestRequest, fileExists: @escaping @Sendable (String) -> Bool) async throws
        -> IngestOutcome
    {
        try await writer.recordChange(syncsCommit: !request.defersSync) { transaction in
            let outcome = try transaction.ingest(request, fileExists: fileExists)
            try transaction.recordSourceDuplicate(request.file, outcome: outcome)
            if request.defersSync, outcome.usesFile { try transaction.rememberUnsyncedCopy(of: request) }
            if let sidecar = request.sidecarPath, outcome.recordsSidecar {
                try SidecarRecords.recordSidecar(
                    sidecar, identity: request.sidecarIdentity, writeProblem: nil, ofAsset: outcome.assetId,
                    in: transaction.db)
            }
            if let album = request.album {
                try transaction.apply(.addAssets(target: album, ids: [outcome.assetId]), index: 0, draft: nil)
            }
            return outcome
        }.value
    }

    /// Ingests a made-up photo and rolls it back, so that the first file dropped in after start is recorded as fast
    /// as the next ones (compiling the ingest's statements and their triggers costs some 5 ms).
    public func rehearseIngest() async throws {
        let draft = AssetDraft(
            mediaType: .image, pixelWidth: 1, pixelHeight: 1, orientation: 1,
            creationDate: Timestamp(secondsSince1970: 0, utcOffsetSeconds: 0), creationDateSource: .fileModification,
            location: nil, contentHash: String(repeating: "0", count: 64),
            resources: [
                DraftResource(
                    type: .photo, originalFilename: "rehearsal.jpg", mimeType: "image/jpeg", fileSize: 1,
                    path: "/rehearsal.jpg", isOwnedByLibrary: true)
            ])
        let file = SourceFile(
            contentHash: draft.contentHash, sourceRoot: "/", sourcePath: "/rehearsal.jpg",
            groupKey: "/rehearsal", role: .still,
            identity: FileIdentity(device: 0, inode: 0, size: 1, modificationTime: 0))
        try await writer.rehearse { transaction in
            let request = IngestRequest(draft: draft, file: file, isReference: false, defersSync: true)
            _ = try transaction.ingest(request, fileExists: { _ in false })
            try transaction.rememberUnsyncedCopy(of: request)
        }
    }
}
