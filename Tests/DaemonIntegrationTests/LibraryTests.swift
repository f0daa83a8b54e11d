import Foundation
import Testing
import TestSupport
import Varlink

/// A running daemon with a few imported photos.
struct PopulatedDaemon {
    let daemon: DaemonProcess
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
        let connection = try await daemon.connect()
        let reply = try await connection.call("io.photolibd.Import.ImportFiles", parameters: .object([
            "paths": .array(paths.map(JSONValue.string)),
        ]))
        let ids = try #require(reply["files"]?.arrayValue).compactMap { $0["assetId"]?.stringValue }
        try #require(ids.count == photoCount)
        return PopulatedDaemon(daemon: daemon, connection: connection, assetIds: ids, photos: photos)
    }

    func call(_ method: String, _ parameters: [String: JSONValue]) async throws -> JSONValue {
        try await connection.call("io.photolibd.Library.\(method)", parameters: .object(parameters))
    }

    func performChanges(_ changes: [[String: JSONValue]]) async throws -> JSONValue {
        try await call("PerformChanges", ["changes": .array(changes.map(JSONValue.object))])
    }

    func fetchIds(_ query: [String: JSONValue] = [:]) async throws -> [String] {
        try await call("FetchAssets", ["query": .object(query)])["assets"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }
}

@Suite(.serialized)
struct LibraryTests {
    @Test func albumsKeepTheirOrderAndPlaceholdersResolve() async throws {
        let library = try await PopulatedDaemon.make()
        let ids = library.assetIds
        let reply = try await library.performChanges([
            ["op": "createAlbum", "title": "Trip", "placeholder": "@trip"],
            ["op": "addAssets", "target": "@trip", "ids": .array([ids[2], ids[0]].map(JSONValue.string))],
        ])
        let album = try #require(reply["created"]?["@trip"]?.stringValue)
        #expect(try await library.fetchIds(["collection": .string(album)]) == [ids[2], ids[0]])
        _ = try await library.performChanges([["op": "removeAssets", "target": .string(album), "ids": [.string(ids[2])]]])
        #expect(try await library.fetchIds(["collection": .string(album)]) == [ids[0]])

        let albums = try await library.call("FetchCollections", ["query": ["kind": "album"]])
        #expect(albums["collections"]?[0]?["title"]?.stringValue == "Trip")
        #expect(albums["collections"]?[0]?["assetCount"]?.intValue == 1)
        #expect(albums["collections"]?[0]?["subtype"]?.stringValue == "albumRegular")
    }

    @Test func smartAlbumsCountFavoritesAndTheLibrary() async throws {
        let library = try await PopulatedDaemon.make()
        _ = try await library.performChanges([["op": "updateAsset", "target": .string(library.assetIds[1]), "isFavorite": true]])
        let smart = try await library.call("FetchCollections", ["query": ["kind": "smartAlbum"]])
        let bySubtype = Dictionary(uniqueKeysWithValues: (smart["collections"]?.arrayValue ?? []).map {
            ($0["subtype"]?.stringValue ?? "", $0)
        })
        #expect(bySubtype["smartAlbumUserLibrary"]?["assetCount"]?.intValue == 3)
        #expect(bySubtype["smartAlbumFavorites"]?["assetCount"]?.intValue == 1)
        let favorites = try #require(bySubtype["smartAlbumFavorites"]?["id"]?.stringValue)
        #expect(try await library.fetchIds(["collection": .string(favorites)]) == [library.assetIds[1]])
    }

    @Test func aFailedCallChangesNothingAndNamesTheProblem() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let before = try await library.call("FetchAssets", ["query": [:]])["token"]
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
        #expect(try await library.call("FetchAssets", ["query": [:]])["token"] == before)
        #expect(try await library.call("FetchCollections", ["query": ["kind": "album"]])["count"] == 0)
    }

    @Test func hiddenTrashedAndRestoredAssets() async throws {
        let library = try await PopulatedDaemon.make()
        let ids = library.assetIds
        _ = try await library.performChanges([
            ["op": "updateAsset", "target": .string(ids[0]), "isHidden": true],
            ["op": "deleteAssets", "ids": [.string(ids[1])]],
        ])
        #expect(try await library.fetchIds() == [ids[2]])
        #expect(try await library.fetchIds(["includeHidden": true]) == [ids[0], ids[2]])
        #expect(try await library.fetchIds(["includeHidden": true, "includeTrashed": true]) == ids)
        let trashed = try await library.call("FetchAssets", ["query": ["ids": [.string(ids[1])], "includeTrashed": true]])
        #expect(trashed["assets"]?[0]?["isTrashed"] == true)
        _ = try await library.performChanges([["op": "restoreAssets", "ids": [.string(ids[1])]]])
        #expect(try await library.fetchIds() == [ids[1], ids[2]])
    }

    @Test func pagingSortingAndLimits() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 5)
        let page = try await library.call("FetchAssets", [
            "query": ["sort": [["key": "creationDate", "ascending": false]], "limit": 4],
            "offset": 1, "pageSize": 2,
        ])
        #expect(page["count"] == 4)
        #expect(page["assets"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [library.assetIds[3], library.assetIds[2]])
        #expect(try await library.fetchIds(["mediaTypes": ["video"]]).isEmpty)
    }

    @Test func aReturnedChangeSurvivesKill9() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let reply = try await library.performChanges([
            ["op": "updateAsset", "target": .string(library.assetIds[0]), "isFavorite": true],
            ["op": "createAlbum", "title": "Kept", "placeholder": "@kept"],
        ])
        try await library.daemon.kill9()
        try await library.daemon.start()
        let connection = try await library.daemon.connect()
        let asset = try await connection.call("io.photolibd.Library.FetchAssets", parameters: ["query": [:]])
        #expect(asset["assets"]?[0]?["isFavorite"] == true)
        #expect(asset["token"] == reply["token"])
        let album = try #require(reply["created"]?["@kept"]?.stringValue)
        let albums = try await connection.call("io.photolibd.Library.FetchCollections", parameters: ["query": ["ids": [.string(album)]]])
        #expect(albums["collections"]?[0]?["title"] == "Kept")
        await connection.close()
    }

    @Test func theOwnUserIsAuthorized() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let connection = try await daemon.connect()
        #expect(try await connection.call("io.photolibd.Library.AuthorizationStatus", parameters: [:])["status"] == "authorized")
        await connection.close()
    }

    @Test func persistentChangesCatchAClientUp() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 2)
        let start = try #require(try await library.call("FetchAssets", ["query": [:]])["token"]?.stringValue)
        let album = try await library.performChanges([["op": "createAlbum", "title": "Later", "placeholder": "@a"]])["created"]?["@a"]
        _ = try await library.performChanges([["op": "updateAsset", "target": .string(library.assetIds[0]), "isFavorite": true]])
        _ = try await library.performChanges([["op": "deleteAssets", "ids": [.string(library.assetIds[1])], "permanently": true]])
        let first = try await library.call("FetchPersistentChanges", ["since": .string(start), "limit": 2])
        #expect(first["hasMore"] == true)
        #expect(first["changes"]?[0]?["insertedCollectionIds"] == [album!])
        #expect(first["changes"]?[1]?["updatedAssetIds"] == [.string(library.assetIds[0])])
        let rest = try await library.call("FetchPersistentChanges", ["since": first["token"]!])
        #expect(rest["hasMore"] == false)
        #expect(rest["changes"]?[0]?["deletedAssetIds"] == [.string(library.assetIds[1])])
        await #expect { try await library.call("FetchPersistentChanges", ["since": "v1:another-library:3"]) } throws: {
            ($0 as? VarlinkError)?.name == "io.photolibd.Library.TokenExpired"
        }
    }
}
