import Foundation
import GRDB
import PhotoModel
import Testing

@testable import LibraryStore

struct ChangeTransactionTests {
    @Test func placeholdersResolveAcrossOpsOfOneCall() async throws {
        let (database, _) = try makeDatabase()
        let outcome = try await database.performChanges(
            [
                .createAsset(AssetCreation(path: "/in/a.jpg", placeholder: "@photo")),
                .createAlbum(title: "Trip", placeholder: "@album", parent: nil),
                .addAssets(target: "@album", ids: ["@photo"]),
            ], drafts: [0: draft("a.jpg")])
        let album = try #require(outcome.created["@album"])
        let photo = try #require(outcome.created["@photo"])
        let page = try await database.fetchAssets(AssetQuery(collection: album))
        #expect(page.assets.map(\.id) == [photo])
        #expect(page.token == outcome.token)
    }

    @Test func aRehearsedIngestLeavesNoTraceAndTheNextChangeFollowsOnWithoutAGap() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([draft("a.jpg")])
        let before = try await database.currentToken()
        let generation = database.feed.generation
        try await database.rehearseIngest()
        try await database.rehearseIngest()
        #expect(try await database.currentToken() == before)
        #expect(database.feed.generation == generation)
        #expect(try await database.history.committedChanges(after: generation, limit: 10).isEmpty)
        #expect(
            try await database.fetchAssets(AssetQuery(includeHidden: true, includeTrashed: true)).assets.map(\.id)
                == ids)
        _ = try await database.insert([draft("b.jpg")])
        #expect(database.feed.generation == generation + 1)
    }

    @Test func aFailingChangeWritesNothing() async throws {
        let (database, _) = try makeDatabase()
        let before = try await database.currentToken()
        await #expect(throws: LibraryError.notFound(id: "missing", index: 2)) {
            try await database.performChanges(
                [
                    .createAsset(AssetCreation(path: "/in/a.jpg", placeholder: "@photo")),
                    .createAlbum(title: "Trip", placeholder: "@album", parent: nil),
                    .addAssets(target: "@album", ids: ["@photo", "missing"]),
                ], drafts: [0: draft("a.jpg")])
        }
        #expect(try await database.currentToken() == before)
        #expect(try await database.fetchAssets(AssetQuery()).count == 0)
        #expect(try await database.fetchCollections(CollectionQuery(kind: .album)).count == 0)
    }

    @Test func smartAlbumsAreReadOnly() async throws {
        let (database, _) = try makeDatabase()
        let favorites = try #require(
            try await database.fetchCollections(CollectionQuery(subtype: .smartAlbumFavorites)).collections.first)
        let ids = try await database.insert([draft("a.jpg")])
        await #expect(
            throws: LibraryError.invalidChange(index: 0, reason: "'\(favorites.id)' is a smartAlbum and read-only")
        ) {
            try await database.performChanges([.addAssets(target: favorites.id, ids: ids)])
        }
    }

    @Test func aPlaceholderMustBeCreatedBeforeUse() async throws {
        let (database, _) = try makeDatabase()
        await #expect(
            throws: LibraryError.invalidChange(
                index: 0, reason: "placeholder '@later' is not created by an earlier change")
        ) {
            try await database.performChanges([
                .addAssets(target: "@later", ids: []),
                .createAlbum(title: "Later", placeholder: "@later", parent: nil),
            ])
        }
    }

    @Test func duplicatesMapToTheExistingAsset() async throws {
        let (database, _) = try makeDatabase()
        let first = try await database.insert([draft("a.jpg")])
        let outcome = try await database.performChanges(
            [.createAsset(AssetCreation(path: "/in/copy.jpg", placeholder: "@again"))],
            drafts: [0: draft("a.jpg")])
        #expect(outcome.assets[0] == .duplicate(assetId: first[0], libraryCopy: nil))
        #expect(try await database.fetchAssets(AssetQuery()).count == 1)
    }

    @Test func trashingKeepsAlbumsAndRestoringBringsTheAssetBack() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([draft("a.jpg"), draft("b.jpg")])
        let album = try await database.performChanges([
            .createAlbum(title: "A", placeholder: "@a", parent: nil),
            .addAssets(target: "@a", ids: ids),
        ]).created["@a"]!
        _ = try await database.performChanges([.deleteAssets(ids: [ids[0]], permanently: false)])
        #expect(try await database.fetchAssets(AssetQuery(collection: album)).assets.map(\.id) == [ids[1]])
        #expect(try await database.fetchAssets(AssetQuery(collection: album, includeTrashed: true)).count == 2)
        let deleted = try await database.fetchCollections(CollectionQuery(subtype: .smartAlbumRecentlyDeleted))
            .collections[0]
        #expect(deleted.assetCount == 1)
        _ = try await database.performChanges([.restoreAssets(ids: [ids[0]])])
        #expect(try await database.fetchAssets(AssetQuery(collection: album)).assets.map(\.id) == ids)
    }

    @Test func permanentDeletionReportsOwnedFiles() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([draft("a.jpg")])
        let outcome = try await database.performChanges([.deleteAssets(ids: ids, permanently: true)])
        #expect(outcome.purgedFiles == ["/store/a.jpg"])
        #expect(try await database.fetchAssets(AssetQuery(includeHidden: true, includeTrashed: true)).count == 0)
    }

    @Test func everyCallLogsExactlyOneChangeWithItsObjects() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([draft("a.jpg"), draft("b.jpg")])
        let update = try await database.performChanges([.updateAsset(target: ids[0], AssetUpdate(isFavorite: true))])
        let history = try await database.history.committedChanges(after: 0, limit: 10)
        #expect(history.map(\.generation) == [1, 2])
        let inserted = history[0].objects.filter { $0.kind == .asset }
        #expect(Set(inserted.map(\.id)) == Set(ids))
        #expect(inserted.allSatisfy { $0.change == .inserted && $0.contentChanged })
        #expect(
            history[0].objects.contains(ObjectChange(id: "moment-2024-01-31", kind: .collection, change: .inserted)))
        let favorites = try await database.fetchCollections(CollectionQuery(subtype: .smartAlbumFavorites)).collections[
            0]
        #expect(
            history[1].objects == [
                ObjectChange(id: ids[0], kind: .asset, change: .changed),
                ObjectChange(id: favorites.id, kind: .collection, change: .changed),
            ])
        #expect(update.token.generation == 2)
        #expect(database.feed.changes(after: 0)?.map(\.generation) == [1, 2])
    }

    @Test func updatesSetAndClearFields() async throws {
        let (database, _) = try makeDatabase()
        let id = try await database.insert([draft("a.jpg")])[0]
        let date = try #require(Timestamp(rfc3339: "2001-02-03T04:05:06-07:00"))
        _ = try await database.performChanges([
            .updateAsset(
                target: id,
                AssetUpdate(
                    isHidden: true, creationDate: .set(date),
                    location: .set(Location(latitude: 1, longitude: 2, altitude: -3))))
        ])
        var asset = try await database.fetchAssets(AssetQuery(ids: [id], includeHidden: true)).assets[0]
        #expect(asset.isHidden && asset.creationDate == date && asset.creationDateSource == .user)
        #expect(asset.location == Location(latitude: 1, longitude: 2, altitude: -3))
        _ = try await database.performChanges([
            .updateAsset(target: id, AssetUpdate(creationDate: .cleared, location: .cleared))
        ])
        asset = try await database.fetchAssets(AssetQuery(ids: [id], includeHidden: true)).assets[0]
        #expect(asset.creationDate == nil && asset.location == nil)
        #expect(try await database.fetchAssets(AssetQuery(ids: [id])).count == 0)
    }
}

struct ChangeHistoryTests {
    @Test func pruningForgetsOldEntriesAndKeepsTheGeneration() async throws {
        let (database, _) = try makeDatabase()
        _ = try await database.insert([draft("a.jpg")])
        _ = try await database.insert([draft("b.jpg")])
        #expect(try await database.history.oldestReplayableGeneration() == 0)
        #expect(try await database.history.pruneHistory(committedBefore: Date().addingTimeInterval(-3600)) == 0)
        #expect(try await database.history.pruneHistory(committedBefore: Date().addingTimeInterval(3600)) == 2)
        #expect(try await database.history.oldestReplayableGeneration() == 2)
        #expect(try await database.currentToken().generation == 2)
        #expect(try await database.history.committedChanges(after: 0, limit: 10).isEmpty)
    }
}
