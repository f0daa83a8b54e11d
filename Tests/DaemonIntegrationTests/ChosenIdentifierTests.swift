import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Varlink

/// Create ops with an `id` the client chose (CONTRACT §12): the object gets it, and a malformed or used one refuses
/// the whole call.
@Suite(.serialized)
struct ChosenIdentifierTests {
    @Test func createdObjectsTakeTheIdsTheClientChose() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 0)
        let photo = try ImageFixtures.image(at: library.photos.file("chosen.jpg"))
        let (asset, album, folder) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased(),
                                      UUID().uuidString.lowercased())
        // Later changes of the call name the new objects by their chosen ids, as PhotoKit's placeholders do.
        _ = try await library.performChanges([
            ["op": "createFolder", "title": "Trips", "id": .string(folder)],
            ["op": "createAlbum", "title": "Rome", "id": .string(album), "parent": .string(folder)],
            ["op": "createAsset", "path": .string(photo), "id": .string(asset)],
            ["op": "addAssets", "target": .string(album), "ids": [.string(asset)]],
        ])
        #expect(try await library.fetchIds(AssetQuery(collection: album)) == [asset])
        let children = try await library.client.fetchCollections(matching: CollectionQuery(parent: folder)).collections
        #expect(children.map(\.id) == [album])
    }

    @Test(arguments: ["not-a-uuid", "A1B2C3D4-0000-4000-8000-000000000000", "a1b2c3d4-0000-4000-8000-00000000000"])
    func aMalformedIdRefusesTheCallAndChangesNothing(id: String) async throws {
        let library = try await PopulatedDaemon.make(photoCount: 0)
        let before = try await library.client.fetchCollections().token
        await #expect(throws: VarlinkError("io.photolibd.Library.InvalidChange", parameters: [
            "index": 1, "reason": .string("id '\(id)' is not a lowercase UUID"),
        ])) {
            try await library.performChanges([
                ["op": "createAlbum", "title": "Fine"],
                ["op": "createAlbum", "title": "Refused", "id": .string(id)],
            ])
        }
        #expect(try await library.client.fetchCollections().token == before)
    }

    @Test func anIdInUseRefusesTheCallAndChangesNothing() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let taken = [library.assetIds[0], UUID().uuidString.lowercased()]
        _ = try await library.performChanges([["op": "createAlbum", "title": "First", "id": .string(taken[1])]])
        for id in taken {
            let before = try await library.client.fetchCollections().token
            await #expect(throws: VarlinkError("io.photolibd.Library.InvalidChange", parameters: [
                "index": 0, "reason": .string("id '\(id)' is in use"),
            ])) {
                try await library.performChanges([["op": "createFolder", "title": "Again", "id": .string(id)]])
            }
            #expect(try await library.client.fetchCollections().token == before)
        }
        // Twice in one call.
        let twice = UUID().uuidString.lowercased()
        await #expect(throws: VarlinkError.self) {
            try await library.performChanges([
                ["op": "createAlbum", "title": "One", "id": .string(twice)],
                ["op": "createAlbum", "title": "Two", "id": .string(twice)],
            ])
        }
    }

    @Test func aDuplicateFileMapsItsChosenIdToTheAssetThatHasItsContent() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let existing = library.assetIds[0]
        let path = library.photos.file("photo0.jpg")
        let chosen = UUID().uuidString.lowercased()
        let album = UUID().uuidString.lowercased()
        let reply = try await library.performChanges([
            ["op": "createAsset", "path": .string(path), "id": .string(chosen), "placeholder": "@again"],
            ["op": "createAlbum", "title": "Again", "id": .string(album)],
            ["op": "addAssets", "target": .string(album), "ids": [.string(chosen)]],
        ])
        #expect(reply["created"]?["@again"] == .string(existing))
        #expect(reply["created"]?[chosen] == .string(existing))
        #expect(try await library.fetchIds(AssetQuery(collection: album)) == [existing])
    }
}
