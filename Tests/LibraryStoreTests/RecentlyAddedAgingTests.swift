import Foundation
import GRDB
import PhotoModel
import Testing

@testable import LibraryStore

/// Recently Added loses assets as the date moves on; that is recorded once, as a change of the album.
@Suite struct RecentlyAddedAgingTests {
    @Test func assetsThatLeaveAreOneChangeOfTheAlbumThatObserversAndCatchUpSee() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([
            draft("leaving.jpg"), draft("staying.jpg", created: "2024-02-01T10:15:00+01:00"),
        ])
        let now = Date(), firstDay = AssetRules.firstRecentDay(now: now)
        #expect(try await database.ageRecentlyAdded(now: now) == nil, "a new library only notes the window")
        let album = try #require(
            try await database.fetchCollections(CollectionQuery(subtype: .smartAlbumRecentlyAdded))
                .collections.first)
        let query = ObservedQuery.assets(AssetQuery(collection: album.id))
        try await database.track([query])
        #expect(database.observedResults.snapshot([query]).members[query]?.ids == ids)

        // As if `leaving.jpg` had been added on the window's first day when observers last heard of it, and
        // a day has passed since: its day is now out of the window.
        try await database.writer.writeUnrecorded { db in
            try db.execute(
                sql: "UPDATE asset SET addedTime = ? WHERE id = ?",
                arguments: [Double(firstDay - 1) * 86_400 + 60, ids[0]])
            try db.execute(sql: "UPDATE library_info SET recentlyAddedFirstDay = ?", arguments: [firstDay - 1])
        }
        let token = try #require(try await database.ageRecentlyAdded(now: now))
        let logged = try await database.history.committedChanges(after: token.generation - 1, limit: 10)
        #expect(
            logged.first?.objects.contains { $0.kind == .collection && $0.id == album.id && $0.change == .changed }
                == true)
        guard case .changed(let change) = database.observedResults.change(of: query, at: token.generation) else {
            Issue.record("the observed album did not change")
            return
        }
        #expect(change.removedIndexes == [0] && change.count == 1)
        #expect(
            try await database.fetchCollections(CollectionQuery(subtype: .smartAlbumRecentlyAdded)).collections.first?
                .assetCount == 1)
        #expect(try await database.ageRecentlyAdded(now: now) == nil, "each departure is announced once")
    }

    @Test func aDayThatLeavesEmptyIsNotAChange() async throws {
        let (database, _) = try makeDatabase()
        _ = try await database.insert([draft("recent.jpg")])
        let now = Date()
        #expect(try await database.ageRecentlyAdded(now: now) == nil)
        let before = try await database.currentToken()
        try await database.writer.writeUnrecorded { db in
            try db.execute(
                sql: "UPDATE library_info SET recentlyAddedFirstDay = ?",
                arguments: [AssetRules.firstRecentDay(now: now) - 3])
        }
        #expect(try await database.ageRecentlyAdded(now: now) == nil)
        #expect(try await database.currentToken() == before)
    }
}
