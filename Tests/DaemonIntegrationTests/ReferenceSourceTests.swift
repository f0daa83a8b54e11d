import Foundation
import Glibc
import Testing
import PhotoLibrary
import TestSupport

/// Reference sources: files indexed in place, followed through renames, deletions and a vanishing folder.
@Suite(.serialized)
struct ReferenceSourceTests {
    @Test func renamedFilesKeepTheirAssetsDeletedOnesAreTrashedAndComeBack() async throws {
        let parent = try TemporaryDirectory()
        let root = parent.file("photos")
        try FileManager.default.createDirectory(atPath: root + "/trip", withIntermediateDirectories: true)
        for (index, name) in ["a.jpg", "b.jpg", "c.jpg", "trip/d.jpg"].enumerated() {
            try MediaFixtures.jpegVariant(index).write(to: URL(fileURLWithPath: root + "/" + name))
        }
        var library = try await WatchedLibrary.start(sources: [(root, "reference")])
        try await library.waitUntil("four assets") { try await library.assets().count == 4 }
        let ids = Dictionary(uniqueKeysWithValues: try await library.assets().map { ($0.originalFilename, $0.id) })
        var changes = PhotoLibrary.ChangeBuilder()
        let placeholder = changes.createAlbum(title: "Kept")
        changes.addAssets([ids["a.jpg"]!], to: placeholder)
        changes.setFavorite(true, for: [ids["a.jpg"]!])
        let album = try #require(try await library.client.performChanges(changes).created[placeholder])

        // Renamed into another folder of the source: same asset, album and favorite; the resource follows.
        try FileManager.default.moveItem(atPath: root + "/a.jpg", toPath: root + "/trip/renamed.jpg")
        try await library.waitUntil("the rename is followed") {
            try await library.assets().contains { $0.resources?.first?.path == root + "/trip/renamed.jpg" }
        }
        var assets = try await library.assets()
        let renamed = try #require(assets.first { $0.id == ids["a.jpg"] })
        #expect(renamed.isFavorite == true)
        #expect(assets.count == 4)
        let inAlbum = try await library.client.fetchAssets(matching: AssetQuery(collection: album))
        #expect(inAlbum.assets.map(\.id) == [ids["a.jpg"]!])

        // Deleted: to Recently Deleted. The same content at another path: back, with the same id.
        let bContent = try Data(contentsOf: URL(fileURLWithPath: root + "/b.jpg"))
        try FileManager.default.removeItem(atPath: root + "/b.jpg")
        try await library.waitUntil("the deletion trashes b") { try await library.assets().count == 3 }
        #expect(try await library.assets(includeTrashed: true).first { $0.id == ids["b.jpg"] }?.isTrashed == true)
        try bContent.write(to: URL(fileURLWithPath: root + "/b-again.jpg"))
        try await library.waitUntil("b comes back") { try await library.assets().count == 4 }
        assets = try await library.assets()
        #expect(assets.first { $0.id == ids["b.jpg"] }?.resources?.first?.path == root + "/b-again.jpg")

        // While the daemon is down: a rename (found by inode, no rehash) and a deletion.
        await library.client.close()
        try await library.daemon.stop()
        try FileManager.default.moveItem(atPath: root + "/c.jpg", toPath: root + "/c-moved.jpg")
        try FileManager.default.removeItem(atPath: root + "/trip/d.jpg")
        try await library.daemon.start()
        library = try await WatchedLibrary(daemon: library.daemon)
        try await library.waitUntil("the start-up scan applies both") {
            let assets = try await library.assets()
            return assets.count == 3 && assets.contains { $0.resources?.first?.path == root + "/c-moved.jpg" }
        }
        assets = try await library.assets()
        #expect(assets.first { $0.resources?.first?.path == root + "/c-moved.jpg" }?.id == ids["c.jpg"])
        #expect(try await library.assets(includeTrashed: true).count == 4)
    }

    @Test func aVanishedSourceFolderMarksItsAssetsOfflineNeverTrashed() async throws {
        let parent = try TemporaryDirectory()
        let root = parent.file("share")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try MediaFixtures.writeVariants(0..<5, in: root)
        let library = try await WatchedLibrary.start(sources: [(root, "reference")])
        try await library.waitUntil("five assets") { try await library.assets().count == 5 }
        let ids = Set(try await library.assets().map(\.id))

        try FileManager.default.moveItem(atPath: root, toPath: parent.file("unmounted"))
        try await library.waitUntil("the source is offline") {
            try await library.sources().first?.state == "offline"
        }
        let offline = try #require(try await library.sources().first)
        #expect(offline.offlineAssetCount == 5)
        #expect(offline.error?.isEmpty == false)
        #expect(try await library.status().offlineSources == [root])
        #expect(Set(try await library.assets().map(\.id)) == ids)

        // An empty folder where the share was (a mount point without its file system) is not a deletion either.
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try await Task.sleep(for: .seconds(3))
        #expect(try await library.assets().count == 5)
        try FileManager.default.removeItem(atPath: root)

        try FileManager.default.moveItem(atPath: parent.file("unmounted"), toPath: root)
        try await library.waitUntil("the source is back") {
            let source = try await library.sources().first
            return source?.state == "watching" && source?.offlineAssetCount == 0
        }
        #expect(Set(try await library.assets().map(\.id)) == ids)
    }
}
