import Foundation
import LibraryStore
import PhotoLibrary
import PhotoModel
import TestSupport
import Testing
import Varlink

/// A daemon serving the model library (`ModelLibrarySeed`).
enum ModelLibrary {
    /// Builds the library, starts the daemon; returns it with the ids by name.
    static func make(extraConfig: String = "") async throws -> (library: PopulatedDaemon, ids: [String: String]) {
        let daemon = try DaemonProcess(extraConfig: extraConfig)
        try FileManager.default.createDirectory(atPath: daemon.libraryPath, withIntermediateDirectories: true)
        let ids = try await ModelLibrarySeed.write(toDatabaseAt: daemon.libraryPath + "/library.sqlite")
        try await daemon.start()
        let library = PopulatedDaemon(
            daemon: daemon, client: try await PhotoLibrary.connect(socketPath: daemon.socketPath),
            connection: try await daemon.connect(),
            assetIds: ModelLibrarySeed.assets.map { ids[$0.name]! }, photos: try TemporaryDirectory())
        return (library, ids)
    }
}

/// Everything a client can see of a library, to compare before and after.
struct LibraryContents: Equatable {
    /// Every asset: hidden, trashed and burst frames too.
    var assets: [Asset]
    var collections: [AssetCollection]
    /// Each album's assets and each folder's children, in order.
    var contents: [String: [String]]
}

extension PopulatedDaemon {
    func everything() async throws -> LibraryContents {
        let assets = try await client.fetchAllAssets(
            matching: AssetQuery(includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)
        ).assets
        let collections = try await self.collections(CollectionQuery())
        var contents: [String: [String]] = [:]
        for collection in collections {
            switch collection.kind {
            case .album:
                contents[collection.id] = try await fetchIds(
                    AssetQuery(collection: collection.id, includeHidden: true, includeTrashed: true))
            case .folder:
                contents[collection.id] = try await self.collections(CollectionQuery(parent: collection.id)).map(\.id)
            default:
                break
            }
        }
        return LibraryContents(assets: assets, collections: collections, contents: contents)
    }

    /// The library's change token.
    func token() async throws -> String {
        try await client.fetchAssets(pageSize: 0).token
    }

    /// Every collection `query` selects, in order.
    func collections(_ query: CollectionQuery) async throws -> [AssetCollection] {
        try await client.fetchAllCollections(matching: query).collections
    }

    /// The titles of the collections `query` selects, in order.
    func titles(_ query: CollectionQuery) async throws -> [String] {
        try await collections(query).map(\.title)
    }

    /// Performs the changes, expecting the daemon's error `name` (with `index` and `reason` when given), and
    /// checks that the library, its token and everything in it are as they were.
    func expectRefusal(
        _ changes: PhotoLibrary.ChangeBuilder, _ name: String, index: Int? = nil, reason: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let token = try await token()
        let before = try await everything()
        await #expect(sourceLocation: sourceLocation) { try await client.performChanges(changes) } throws: { error in
            guard let error = (error as? PhotoLibraryError)?.varlinkError, error.name == "io.photolibd.Library." + name
            else { return false }
            if let index, error.parameters["index"] != .int(index) { return false }
            if let reason, error.parameters["reason"] != .string(reason) { return false }
            return true
        }
        #expect(try await self.token() == token, sourceLocation: sourceLocation)
        #expect(try await everything() == before, sourceLocation: sourceLocation)
    }
}
