import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Varlink

/// A running daemon with a few imported photos, and a typed client and a raw connection to it.
struct PopulatedDaemon {
    let daemon: DaemonProcess
    let client: PhotoLibrary
    let connection: VarlinkConnection
    let assetIds: [String]
    let photos: TemporaryDirectory

    static func make(photoCount: Int = 3) async throws -> PopulatedDaemon {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let paths = try (0..<photoCount).map {
            try ImageFixtures.image(at: photos.file("photo\($0).jpg"), exif: ["-DateTimeOriginal=2024:02:0\($0 + 1) 12:00:00"])
        }
        let client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await client.importFiles(paths).files.compactMap(\.assetId)
        try #require(ids.count == photoCount)
        return PopulatedDaemon(daemon: daemon, client: client, connection: try await daemon.connect(), assetIds: ids, photos: photos)
    }

    /// The ids of the assets `query` selects, in order.
    func fetchIds(_ query: AssetQuery = AssetQuery()) async throws -> [String] {
        try await client.fetchAllAssets(matching: query).assets.map(\.id)
    }

    /// Performs the changes `build` asks for, in one transaction.
    func change(_ build: (inout PhotoLibrary.ChangeBuilder) -> Void) async throws -> ChangeResult {
        var changes = PhotoLibrary.ChangeBuilder()
        build(&changes)
        return try await client.performChanges(changes)
    }

    /// Sends a raw change list, as no typed client could write it (for tests of what the daemon refuses).
    func performChanges(_ changes: [[String: JSONValue]]) async throws -> JSONValue {
        try await connection.call("io.photolibd.Library.PerformChanges", parameters: ["changes": .array(changes.map(JSONValue.object))])
    }

}

@Suite(.serialized)
struct LibraryTests {
    @Test func albumsKeepTheirOrderAndPlaceholdersResolve() async throws {
        let library = try await PopulatedDaemon.make()
        let ids = library.assetIds
        var changes = PhotoLibrary.ChangeBuilder()
        let trip = changes.createAlbum(title: "Trip")
        changes.addAssets([ids[2], ids[0]], to: trip)
        let album = try #require(try await library.client.performChanges(changes).created[trip])
        #expect(try await library.fetchIds(AssetQuery(collection: album)) == [ids[2], ids[0]])
        _ = try await library.change { $0.removeAssets([ids[2]], from: album) }
        #expect(try await library.fetchIds(AssetQuery(collection: album)) == [ids[0]])

        let albums = try await library.client.fetchCollections(matching: CollectionQuery(kind: .album)).collections
        #expect(albums.map(\.title) == ["Trip"])
        #expect(albums.first?.assetCount == 1)
        #expect(albums.first?.subtype == .albumRegular)
    }

    @Test func smartAlbumsCountFavoritesAndTheLibrary() async throws {
        let library = try await PopulatedDaemon.make()
        _ = try await library.change { $0.setFavorite(true, for: [library.assetIds[1]]) }
        let smart = try await library.client.fetchCollections(matching: CollectionQuery(kind: .smartAlbum)).collections
        let bySubtype = Dictionary(uniqueKeysWithValues: smart.map { ($0.subtype, $0) })
        #expect(bySubtype[.smartAlbumUserLibrary]?.assetCount == 3)
        #expect(bySubtype[.smartAlbumFavorites]?.assetCount == 1)
        let favorites = try #require(bySubtype[.smartAlbumFavorites]?.id)
        #expect(try await library.fetchIds(AssetQuery(collection: favorites)) == [library.assetIds[1]])
    }

    @Test func aFailedCallChangesNothingAndNamesTheProblem() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let before = try await library.token()
        await #expect { try await library.performChanges([
            ["op": "createAlbum", "title": "Doomed", "placeholder": "@doomed"],
            ["op": "addAssets", "target": "@doomed", "ids": ["no-such-asset"]],
        ]) } throws: { error in
            let error = error as? VarlinkError
            return error?.name == "io.photolibd.Library.NotFound" && error?.parameters["id"] == "no-such-asset"
                && error?.parameters["index"] == 1
        }
        await #expect { try await library.performChanges([["op": "launch"]]) } throws: { error in
            let error = error as? VarlinkError
            return error?.name == "io.photolibd.Library.InvalidChange" && error?.parameters["index"] == 0
        }
        #expect(try await library.token() == before)
        #expect(try await library.collections(CollectionQuery(kind: .album)).isEmpty)
    }

    @Test func hiddenTrashedAndRestoredAssets() async throws {
        let library = try await PopulatedDaemon.make()
        let ids = library.assetIds
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setHidden(true, for: [ids[0]])
        changes.deleteAssets([ids[1]])
        _ = try await library.client.performChanges(changes)
        #expect(try await library.fetchIds(AssetQuery()) == [ids[2]])
        #expect(try await library.fetchIds(AssetQuery(includeHidden: true)) == [ids[0], ids[2]])
        #expect(try await library.fetchIds(AssetQuery(includeHidden: true, includeTrashed: true)) == ids)
        let trashed = try await library.client.fetchAssets(matching: AssetQuery(ids: [ids[1]], includeTrashed: true)).assets
        #expect(trashed.map(\.isTrashed) == [true])
        _ = try await library.change { $0.restoreAssets([ids[1]]) }
        #expect(try await library.fetchIds(AssetQuery()) == [ids[1], ids[2]])
    }

    @Test func pagingSortingAndLimits() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 5)
        let page = try await library.client.fetchAssets(
            matching: AssetQuery(sort: [SortDescriptor(key: "creationDate", ascending: false)], limit: 4), offset: 1, pageSize: 2)
        #expect(page.count == 4)
        #expect(page.assets.map(\.id) == [library.assetIds[3], library.assetIds[2]])
        #expect(try await library.fetchIds(AssetQuery(mediaTypes: [.video])).isEmpty)
    }

    @Test func aReturnedChangeSurvivesKill9() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setFavorite(true, for: [library.assetIds[0]])
        let kept = changes.createAlbum(title: "Kept")
        let reply = try await library.client.performChanges(changes)
        try await library.daemon.kill9()
        try await library.daemon.start()
        let client = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        let assets = try await client.fetchAssets()
        #expect(assets.assets.map(\.isFavorite) == [true])
        #expect(assets.token == reply.token)
        let album = try #require(reply.created[kept])
        #expect(try await client.fetchCollections(matching: CollectionQuery(ids: [album])).collections.map(\.title) == ["Kept"])
        await client.close()
    }

    @Test func theOwnUserIsAuthorized() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        #expect(try await client.authorizationStatus() == .authorized)
        await client.close()
    }

    @Test func persistentChangesCatchAClientUp() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 2)
        let client = library.client
        let start = try await client.fetchAssets().token
        var changes = PhotoLibrary.ChangeBuilder()
        let later = changes.createAlbum(title: "Later")
        let album = try #require(try await client.performChanges(changes).created[later])
        changes = PhotoLibrary.ChangeBuilder()
        changes.setFavorite(true, for: [library.assetIds[0]])
        _ = try await client.performChanges(changes)
        changes = PhotoLibrary.ChangeBuilder()
        changes.deleteAssets([library.assetIds[1]], permanently: true)
        _ = try await client.performChanges(changes)
        let first = try await client.fetchPersistentChanges(since: start, limit: 2)
        #expect(first.hasMore)
        #expect(first.changes.map(\.insertedCollectionIds) == [[album], []])
        #expect(first.changes.map(\.updatedAssetIds) == [[], [library.assetIds[0]]])
        let rest = try await client.fetchPersistentChanges(since: first.token)
        #expect(!rest.hasMore)
        #expect(rest.changes.map(\.deletedAssetIds) == [[library.assetIds[1]]])
        await #expect { try await client.fetchPersistentChanges(since: "v1:another-library:3") } throws: {
            ($0 as? PhotoLibraryError)?.varlinkError?.name == "io.photolibd.Library.TokenExpired"
        }
    }
}
