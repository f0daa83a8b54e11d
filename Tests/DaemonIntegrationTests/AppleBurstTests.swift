import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// iPhone bursts (CONTRACT §3, §8, §17): frames whose maker notes carry one Apple BurstUUID become one burst, shown
/// by its representative until a fetch asks for every burst asset. The frames are `Tests/Fixtures/bursts`: a real
/// iPhone 7 photo's EXIF with the burst entry added (see its README).
struct AppleBurstTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/bursts")
    static let burstA = "ACDE2A4F-DF41-4BF9-9195-C592C65DD139"
    static let burstB = "2C9B5FB3-B6C4-444D-B944-C3BCEBEE4550"

    @Test func threeFramesOfABurstShowAsOneUntilAllBurstAssetsAreAskedAndAnotherBurstStaysApart() async throws {
        let library = try await ImageLibrary.start()
        // Imported out of capture order: the representative is the first frame taken, not the first imported.
        let names = ["iphone-burst-a-3.jpg", "iphone-burst-b-1.jpg", "iphone-burst-a-1.jpg", "iphone-burst-a-2.jpg"]
        let paths = try names.map { name in
            let path = library.photos.file(name)
            try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent(name).path, toPath: path)
            return path
        }
        let imported = try await library.importByReference(paths)
        let id = Dictionary(uniqueKeysWithValues: zip(names, imported))
        let (a1, a2, a3, b1) = (
            id["iphone-burst-a-1.jpg"]!, id["iphone-burst-a-2.jpg"]!, id["iphone-burst-a-3.jpg"]!,
            id["iphone-burst-b-1.jpg"]!
        )
        let client = library.client

        // Every frame carries its burst's identifier; the two bursts stay apart.
        let everyFrame = try await client.fetchAllAssets(matching: AssetQuery(includeAllBurstAssets: true)).assets
        #expect(everyFrame.map(\.id) == [a1, a2, a3, b1], "by capture time, frames included")
        #expect(everyFrame.map(\.burstIdentifier) == [Self.burstA, Self.burstA, Self.burstA, Self.burstB])
        #expect(everyFrame.map(\.representsBurst) == [true, false, false, true])

        // A default fetch shows one asset per burst: its representative.
        let shown = try await client.fetchAllAssets().assets
        #expect(shown.map(\.id) == [a1, b1])
        #expect(shown.allSatisfy { $0.representsBurst == true })
        #expect(try await client.fetchAssets(pageSize: 0).count == 2)

        // PhotoKit's fetchAssets(withBurstIdentifier:): the burst's frames, all of them.
        let burst = try await client.fetchAllAssets(matching: AssetQuery(burstIdentifier: Self.burstA)).assets
        #expect(burst.map(\.id) == [a1, a2, a3])

        // The Bursts smart album holds the bursts, a representative each, and every frame when asked.
        let bursts = try #require(
            try await client.fetchCollections(matching: CollectionQuery(subtype: .smartAlbumBursts)).collections.first)
        #expect(bursts.assetCount == 2)
        #expect(
            try await client.fetchAllAssets(matching: AssetQuery(collection: bursts.id)).assets.map(\.id) == [a1, b1])
        let framesInAlbum = try await client.fetchAllAssets(
            matching: AssetQuery(collection: bursts.id, includeAllBurstAssets: true)
        ).assets
        #expect(framesInAlbum.map(\.id) == [a1, a2, a3, b1])
        let userLibrary = try #require(
            try await client.fetchCollections(matching: CollectionQuery(subtype: .smartAlbumUserLibrary)).collections
                .first)
        #expect(userLibrary.assetCount == 2)

        // Trashing the representative hands the burst to the next frame taken.
        var changes = PhotoLibrary.ChangeBuilder()
        changes.deleteAssets([a1])
        _ = try await client.performChanges(changes)
        #expect(try await client.fetchAllAssets().assets.map(\.id) == [a2, b1])
        let refreshed = try #require(
            try await client.fetchCollections(matching: CollectionQuery(subtype: .smartAlbumBursts)).collections.first)
        #expect(refreshed.assetCount == 2)
    }

    /// A referenced file rewritten in place with a burst frame's content joins that burst, and leaves it when it is
    /// rewritten again with a photo of no burst: the burst follows the content, as the rest of the metadata does.
    @Test func aFileRewrittenInPlaceJoinsAndLeavesTheBurstOfItsContent() async throws {
        let parent = try TemporaryDirectory()
        let root = parent.file("photos")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.fixtures.appendingPathComponent("iphone-burst-a-1.jpg").path, toPath: root + "/a-1.jpg")
        try MediaFixtures.jpegVariant(0).write(to: URL(fileURLWithPath: root + "/frame.jpg"))
        let library = try await WatchedLibrary.start(sources: [(root, "reference")])
        try await library.waitUntil("two assets") { try await library.assets().count == 2 }
        func burstOfFrame() async throws -> String? {
            try await library.client.fetchAllAssets(matching: AssetQuery(includeAllBurstAssets: true)).assets
                .first { $0.originalFilename == "frame.jpg" }?.burstIdentifier
        }
        #expect(try await burstOfFrame() == nil)

        let frame = try Data(contentsOf: Self.fixtures.appendingPathComponent("iphone-burst-a-2.jpg"))
        try frame.write(to: URL(fileURLWithPath: root + "/frame.jpg"))
        try await library.waitUntil("the frame joins burst A") { try await burstOfFrame() == Self.burstA }
        #expect(try await library.assets().count == 1, "one burst, shown by its representative")

        try MediaFixtures.jpegVariant(1).write(to: URL(fileURLWithPath: root + "/frame.jpg"))
        try await library.waitUntil("the frame leaves the burst") { try await burstOfFrame() == nil }
        #expect(try await library.assets().count == 2)
    }
}
