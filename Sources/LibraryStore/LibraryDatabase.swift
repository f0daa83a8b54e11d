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
}
