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

    /// Opens (creating and migrating as needed) the database file at `path`.
    public init(path: String) throws {
        writer = try LibraryWriter(path: path)
    }

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
        ChangeToken(libraryId: libraryId, generation: try Int64.fetchOne(db, sql: "SELECT generation FROM library_info")!)
    }

    /// One page of assets and the size of the whole result, read at one consistent state.
    public func fetchAssets(_ query: AssetQuery, offset: Int = 0, pageSize: Int = 500,
                            includeResources: Bool = false) async throws -> AssetPage {
        guard offset >= 0 else { throw LibraryError.invalidParameter("offset") }
        guard pageSize >= 0 else { throw LibraryError.invalidParameter("pageSize") }
        let now = Date()
        return try await writer.read { db in
            let selection = try AssetSelection.compiling(query, now: now, in: db)
            // A cursor reads each row in place, without copying it first.
            var assets = try Array(AssetRecord.fetchCursor(
                db, sql: selection.pageSQL(columns: AssetRecord.selection, offset: offset, count: pageSize),
                arguments: selection.arguments
            ).map(\.asset))
            let count = try selection.count(ofFirstPage: assets.count, pageSize: pageSize, offset: offset) ?? selection.count(db)
            let keywords = try AnnotationColumns.keywords(of: assets.map(\.id), in: db)
            for index in assets.indices { assets[index].annotations.keywords = keywords[assets[index].id] ?? [] }
            if includeResources {
                let resources = try ResourceRecord.resources(of: assets.map(\.id), in: db)
                let sidecars = try SidecarRows.states(of: assets.map(\.id), in: db)
                for index in assets.indices {
                    assets[index].resources = resources[assets[index].id] ?? []
                    assets[index].sidecar = sidecars[assets[index].id]
                }
            }
            return AssetPage(count: count, assets: assets, token: try token(db))
        }
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
