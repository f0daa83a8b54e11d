import Foundation
import PhotoModel
import Testing

@testable import LibraryStore

/// Groups of duplicates kept in the store (CONTRACT §17): best first, never chains, updated by trash, restore,
/// delete and merge in the same transaction, with the Duplicates album's exact count and changes.
struct DuplicateStoreTests {
    private static let threshold = 6

    /// A library with assets of the given sizes (pixels wide, for a 4:3 picture) and fingerprints.
    private static func library(_ assets: [(width: Int, fingerprint: UInt64?)]) async throws -> (
        LibraryDatabase, [String]
    ) {
        let (database, _) = try makeDatabase()
        try await database.duplicates.useDuplicateThreshold(threshold)
        let ids = try await database.insert(
            assets.enumerated().map {
                draft("photo\($0.offset).jpg", width: $0.element.width, height: $0.element.width * 3 / 4)
            })
        try await database.duplicates.recordFingerprints(
            zip(ids, assets).map { ($0, $1.fingerprint.map(ImageFingerprint.init(bits:))) })
        return (database, ids)
    }

    private static func album(_ database: LibraryDatabase) async throws -> AssetCollection {
        try await database.fetchCollections(CollectionQuery(kind: .smartAlbum, subtype: .smartAlbumDuplicates))
            .collections[0]
    }

    /// Bits 0..<n of a base pattern flipped.
    private static func near(_ base: UInt64, flipping bits: Int, from first: Int = 0) -> UInt64 {
        (first..<first + bits).reduce(base) { $0 ^ (1 << UInt64($1)) }
    }

    private static let base: UInt64 = 0x9E37_79B9_7F4A_7C15

    @Test func copiesGroupBestFirstAndTheAlbumCountsThem() async throws {
        let (database, ids) = try await Self.library([
            (2000, Self.base), (4000, Self.near(Self.base, flipping: 3)),
            (1000, Self.near(Self.base, flipping: 3, from: 20)),
            (3000, ~Self.base), (3000, nil),
        ])
        #expect(try await database.duplicates.fetchDuplicates(nil) == [[ids[1], ids[0], ids[2]]])
        let album = try await Self.album(database)
        #expect(album.assetCount == 3)
        let members = try await database.fetchAssets(AssetQuery(collection: album.id)).assets.map(\.id)
        #expect(members == [ids[1], ids[0], ids[2]])
    }

    /// Frames each within the threshold of the next, but not of the first: the best takes its neighbours, and the
    /// rest group on their own.
    @Test func nearPairsNeverChainIntoOneGroup() async throws {
        let frames = (0..<5).map { Self.near(Self.base, flipping: 4 * $0) }
        let (database, ids) = try await Self.library(frames.enumerated().map { (4000 - $0.offset, $0.element) })
        #expect(try await database.duplicates.fetchDuplicates(nil) == [[ids[0], ids[1]], [ids[2], ids[3]]])
    }

    @Test func trashRestoreAndDeleteRegroupInTheirTransaction() async throws {
        let (database, ids) = try await Self.library([(4000, Self.base), (2000, Self.near(Self.base, flipping: 2))])
        _ = try await database.performChanges([.deleteAssets(ids: [ids[0]], permanently: false)])
        #expect(try await database.duplicates.fetchDuplicates(nil).isEmpty)
        #expect(try await Self.album(database).assetCount == 0)
        _ = try await database.performChanges([.restoreAssets(ids: [ids[0]])])
        #expect(try await database.duplicates.fetchDuplicates(nil) == [[ids[0], ids[1]]])
        _ = try await database.performChanges([.deleteAssets(ids: [ids[0]], permanently: true)])
        #expect(try await database.duplicates.fetchDuplicates(nil).isEmpty)
    }

    @Test func aMergeKeepsTheBestWithEverythingTheOthersHad() async throws {
        let (database, ids) = try await Self.library([(4000, Self.base), (2000, Self.near(Self.base, flipping: 2))])
        let created = try await database.performChanges([
            .createAlbum(title: "Trip", placeholder: "@trip", parent: nil),
            .addAssets(target: "@trip", ids: [ids[1]]),
            .updateAsset(
                target: ids[1],
                AssetUpdate(
                    isFavorite: true, creationDate: .set(Timestamp(rfc3339: "2020-05-01T08:00:00+02:00")!),
                    location: .set(Location(latitude: 48.85, longitude: 2.35)), rating: 4, keywords: ["beach"],
                    title: .set("Sunset"))),
            .updateAsset(target: ids[0], AssetUpdate(rating: 2, keywords: ["holiday"])),
        ])
        let trip = created.created["@trip"]!
        _ = try await database.performChanges([.mergeDuplicates(ids: [ids[1], ids[0]])])
        let kept = try await database.fetchAssets(AssetQuery(ids: [ids[0]])).assets[0]
        #expect(kept.isFavorite && kept.annotations.rating == 4 && kept.annotations.title == "Sunset")
        #expect(kept.annotations.keywords == ["holiday", "beach"])
        #expect(
            kept.location?.latitude == 48.85 && kept.creationDate == Timestamp(rfc3339: "2020-05-01T08:00:00+02:00"))
        #expect(try await database.fetchAssets(AssetQuery(collection: trip)).assets.map(\.id) == [ids[0]])
        let merged = try await database.fetchAssets(AssetQuery(ids: [ids[1]], includeTrashed: true)).assets[0]
        #expect(merged.isTrashed)
        #expect(try await database.duplicates.fetchDuplicates(nil).isEmpty)

        _ = try await database.performChanges([.restoreAssets(ids: [ids[1]])])
        #expect(Set(try await database.fetchAssets(AssetQuery(collection: trip)).assets.map(\.id)) == Set(ids))
        #expect(try await database.duplicates.fetchDuplicates(nil) == [[ids[0], ids[1]]])
    }

    @Test func aMergeOfAssetsThatAreNotOneGroupChangesNothing() async throws {
        let (database, ids) = try await Self.library([
            (4000, Self.base), (2000, Self.near(Self.base, flipping: 2)), (3000, ~Self.base), (1000, ~Self.base ^ 1),
        ])
        for wrong in [[ids[0], ids[2]], [ids[0], "no-such-asset"]] {
            await #expect(throws: LibraryError.self) {
                _ = try await database.performChanges([.mergeDuplicates(ids: wrong)])
            }
        }
        _ = try await database.performChanges([.deleteAssets(ids: [ids[3]], permanently: false)])
        await #expect(throws: LibraryError.self) {
            _ = try await database.performChanges([.mergeDuplicates(ids: [ids[2], ids[3]])])
        }
        #expect(try await database.duplicates.fetchDuplicates(nil) == [[ids[0], ids[1]]])
    }

    @Test func aNewThresholdRegroupsEverything() async throws {
        let (database, ids) = try await Self.library([(4000, Self.base), (2000, Self.near(Self.base, flipping: 5))])
        #expect(try await database.duplicates.fetchDuplicates(nil) == [[ids[0], ids[1]]])
        try await database.duplicates.useDuplicateThreshold(4)
        #expect(try await database.duplicates.fetchDuplicates(nil).isEmpty)
        try await database.duplicates.useDuplicateThreshold(Self.threshold)
        #expect(try await database.duplicates.fetchDuplicates(nil) == [[ids[0], ids[1]]])
    }

    /// The in-memory index finds what the per-asset queries find, on random fingerprints with planted copies.
    @Test func makingAllGroupsAfreshAgreesWithGroupingOneByOne() async throws {
        var generator = SystemRandomNumberGenerator()
        var assets: [(width: Int, fingerprint: UInt64?)] = []
        for _ in 0..<300 {
            let original = generator.next() as UInt64
            assets.append((1000 + Int(generator.next() % 3000), original))
            for _ in 0..<Int(generator.next() % 3) {
                let flips = Int(generator.next() % 10)
                let copy = (0..<flips).reduce(original) { bits, _ in bits ^ (1 << (generator.next() % 64)) }
                assets.append((1000 + Int(generator.next() % 3000), copy))
            }
        }
        let (database, _) = try await Self.library(assets)
        let oneByOne = try await database.duplicates.fetchDuplicates(nil)
        #expect(!oneByOne.isEmpty)
        try await database.duplicates.useDuplicateThreshold(0)
        try await database.duplicates.useDuplicateThreshold(Self.threshold)
        #expect(try await database.duplicates.fetchDuplicates(nil) == oneByOne)
    }
}
