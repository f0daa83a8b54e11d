import Foundation
import PhotoModel
import Testing

@testable import LibraryStore

/// Albums keep an exact order, folders nest without cycles, and every change is all or nothing.
struct CollectionChangeTests {
    private func titles(_ database: LibraryDatabase, _ query: CollectionQuery) async throws -> [String] {
        try await database.fetchCollections(query).collections.map(\.title)
    }

    private func order(_ database: LibraryDatabase, _ album: String, includeHidden: Bool = false) async throws
        -> [String]
    {
        try await database.fetchAssets(AssetQuery(collection: album, includeHidden: includeHidden)).assets.map(
            \.originalFilename)
    }

    /// Runs `changes`, expecting `error`, and checks that nothing was written.
    private func expectRefusal(
        _ database: LibraryDatabase, _ changes: [LibraryChange], _ error: LibraryError,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let token = try await database.currentToken()
        let collections = try await database.fetchCollections(CollectionQuery())
        let assets = try await database.fetchAssets(AssetQuery(includeHidden: true, includeTrashed: true))
        await #expect(throws: error, sourceLocation: sourceLocation) { try await database.performChanges(changes) }
        #expect(try await database.currentToken() == token, sourceLocation: sourceLocation)
        #expect(
            try await database.fetchCollections(CollectionQuery()).collections == collections.collections,
            sourceLocation: sourceLocation)
        #expect(
            try await database.fetchAssets(AssetQuery(includeHidden: true, includeTrashed: true)).assets
                == assets.assets,
            sourceLocation: sourceLocation)
    }

    @Test func foldersNestToAnyDepthInTheirOwnOrder() async throws {
        let (database, _) = try makeDatabase()
        let created = try await database.performChanges([
            .createFolder(title: "Travel", placeholder: "@travel", parent: nil),
            .createFolder(title: "Europe", placeholder: "@europe", parent: "@travel"),
            .createFolder(title: "Italy", placeholder: "@italy", parent: "@europe"),
            .createAlbum(title: "Rome", placeholder: "@rome", parent: "@italy"),
            .createAlbum(title: "Venice", placeholder: "@venice", parent: "@italy"),
            .createAlbum(title: "Asia", placeholder: "@asia", parent: "@travel"),
            .createAlbum(title: "Loose", placeholder: "@loose", parent: nil),
        ]).created
        let id = { (name: String) in created["@" + name]! }
        #expect(try await titles(database, CollectionQuery(parent: id("travel"))) == ["Europe", "Asia"])
        #expect(try await titles(database, CollectionQuery(parent: id("italy"))) == ["Rome", "Venice"])
        #expect(try await titles(database, CollectionQuery(topLevelUserCollections: true)) == ["Loose", "Travel"])
        let rome = try await database.fetchCollections(CollectionQuery(ids: [id("rome")])).collections[0]
        #expect(rome.parentId == id("italy"))
        #expect(rome.assetCount == 0)

        _ = try await database.performChanges([
            .moveChildCollections(target: id("italy"), indexes: [1], toIndex: 0),
            .addChildCollections(target: id("travel"), ids: [id("loose")]),
            .moveChildCollections(target: id("travel"), indexes: [2], toIndex: 1),
        ])
        #expect(try await titles(database, CollectionQuery(parent: id("italy"))) == ["Venice", "Rome"])
        #expect(try await titles(database, CollectionQuery(parent: id("travel"))) == ["Europe", "Loose", "Asia"])
        #expect(try await titles(database, CollectionQuery(topLevelUserCollections: true)) == ["Travel"])

        _ = try await database.performChanges([.removeChildCollections(target: id("europe"), ids: [id("italy")])])
        #expect(try await titles(database, CollectionQuery(topLevelUserCollections: true)) == ["Italy", "Travel"])
        let deletion = try await database.performChanges([.deleteCollections(ids: [id("italy"), id("rome")])])
        #expect(
            try await titles(database, CollectionQuery(kind: .album, sort: [SortDescriptor(key: "title")])) == [
                "Asia", "Loose",
            ])
        let logged = try await database.history.committedChanges(after: deletion.token.generation - 1, limit: 1)[0]
            .objects
        #expect(Set(logged.map(\.id)) == [id("italy"), id("rome"), id("venice")])
        #expect(logged.allSatisfy { $0.change == .removed })
    }

    @Test func cyclesReadOnlyTargetsAndBadIndexesWriteNothing() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([draft("a.jpg"), draft("b.jpg")])
        let created = try await database.performChanges([
            .createFolder(title: "Outer", placeholder: "@outer", parent: nil),
            .createFolder(title: "Inner", placeholder: "@inner", parent: "@outer"),
            .createAlbum(title: "Album", placeholder: "@album", parent: "@inner"),
            .addAssets(target: "@album", ids: ids),
        ]).created
        let outer = created["@outer"]!, inner = created["@inner"]!, album = created["@album"]!
        let favorites = try await database.fetchCollections(CollectionQuery(subtype: .smartAlbumFavorites)).collections[
            0
        ].id
        try await expectRefusal(
            database,
            [
                .createAlbum(title: "New", placeholder: "@new", parent: nil),
                .addChildCollections(target: inner, ids: [outer]),
            ],
            .invalidChange(index: 1, reason: "'\(outer)' cannot go into '\(inner)': a folder cannot be inside itself"))
        try await expectRefusal(
            database, [.addChildCollections(target: inner, ids: [inner])],
            .invalidChange(index: 0, reason: "'\(inner)' cannot go into '\(inner)': a folder cannot be inside itself"))
        try await expectRefusal(
            database, [.addChildCollections(target: album, ids: [outer])],
            .invalidChange(index: 0, reason: "'\(album)' is an album, expected folder"))
        try await expectRefusal(
            database, [.createAlbum(title: "X", placeholder: "@x", parent: favorites)],
            .invalidChange(index: 0, reason: "'\(favorites)' is a smartAlbum and read-only"))
        try await expectRefusal(
            database, [.deleteCollections(ids: [favorites])],
            .invalidChange(index: 0, reason: "'\(favorites)' is a smartAlbum and read-only"))
        try await expectRefusal(
            database, [.insertAssets(target: album, ids: [ids[0]], indexes: [0])],
            .invalidChange(index: 0, reason: "asset '\(ids[0])' is already in the album"))
        try await expectRefusal(
            database,
            [
                .removeAssets(target: album, ids: [ids[0]]), .insertAssets(target: album, ids: [ids[0]], indexes: [-1]),
            ], .invalidChange(index: 1, reason: "index -1 is out of range 0...1"))
        try await expectRefusal(
            database,
            [
                .removeAssets(target: album, ids: [ids[0]]), .insertAssets(target: album, ids: [ids[0]], indexes: [2]),
            ], .invalidChange(index: 1, reason: "index 2 is out of range 0...1"))
        try await expectRefusal(
            database, [.moveAssets(target: album, indexes: [0], toIndex: 2)],
            .invalidChange(index: 0, reason: "toIndex 2 is out of range 0...1"))
        try await expectRefusal(
            database, [.moveAssets(target: album, indexes: [5], toIndex: 0)],
            .invalidChange(index: 0, reason: "index 5 is out of range 0..<2"))
        try await expectRefusal(
            database, [.moveChildCollections(target: outer, indexes: [0, 0], toIndex: 0)],
            .invalidChange(index: 0, reason: "an index is listed twice"))
        try await expectRefusal(
            database, [.removeChildCollections(target: outer, ids: [album])],
            .invalidChange(index: 0, reason: "'\(album)' is not in folder '\(outer)'"))
        try await expectRefusal(
            database,
            [.addAssets(target: "@later", ids: []), .createAlbum(title: "L", placeholder: "@later", parent: nil)],
            .invalidChange(index: 0, reason: "placeholder '@later' is not created by an earlier change"))
        try await expectRefusal(
            database, [.addChildCollections(target: outer, ids: ["missing"])],
            .notFound(id: "missing", index: 0))
    }

    @Test func albumOrderIsExactAndKeepsHiddenAndTrashedMembersInPlace() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert(["a", "b", "c", "d", "e", "f"].map { draft("\($0).jpg") })
        let album = try await database.performChanges([
            .createAlbum(title: "Ordered", placeholder: "@album", parent: nil),
            .addAssets(target: "@album", ids: [ids[0], ids[1], ids[2], ids[0]]),
            .insertAssets(target: "@album", ids: [ids[3], ids[4]], indexes: [0, 4]),
        ]).created["@album"]!
        #expect(try await order(database, album) == ["d.jpg", "a.jpg", "b.jpg", "c.jpg", "e.jpg"])

        _ = try await database.performChanges([.moveAssets(target: album, indexes: [0, 2], toIndex: 2)])
        #expect(try await order(database, album) == ["a.jpg", "c.jpg", "d.jpg", "b.jpg", "e.jpg"])

        _ = try await database.performChanges([
            .updateAsset(target: ids[2], AssetUpdate(isHidden: true)),
            .deleteAssets(ids: [ids[3]], permanently: false),
        ])
        #expect(try await order(database, album) == ["a.jpg", "b.jpg", "e.jpg"])
        _ = try await database.performChanges([
            .moveAssets(target: album, indexes: [2], toIndex: 0),
            .insertAssets(target: album, ids: [ids[5]], indexes: [3]),
        ])
        #expect(try await order(database, album) == ["e.jpg", "a.jpg", "b.jpg", "f.jpg"])
        _ = try await database.performChanges([
            .updateAsset(target: ids[2], AssetUpdate(isHidden: false)), .restoreAssets(ids: [ids[3]]),
        ])
        #expect(try await order(database, album) == ["e.jpg", "a.jpg", "c.jpg", "d.jpg", "b.jpg", "f.jpg"])
        let summary = try await database.fetchCollections(CollectionQuery(ids: [album])).collections[0]
        #expect(summary.assetCount == 6)
    }

    @Test func theChangeLogReportsEveryFolderAroundAChangedAlbum() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([draft("a.jpg")])
        let created = try await database.performChanges([
            .createFolder(title: "Outer", placeholder: "@outer", parent: nil),
            .createFolder(title: "Inner", placeholder: "@inner", parent: "@outer"),
            .createAlbum(title: "Album", placeholder: "@album", parent: "@inner"),
        ]).created
        let add = try await database.performChanges([.addAssets(target: created["@album"]!, ids: ids)])
        let added = try await database.history.committedChanges(after: add.token.generation - 1, limit: 1)[0].objects
        #expect(Set(added.map(\.id)) == Set(["@album", "@inner", "@outer"].map { created[$0]! }))
        #expect(added.allSatisfy { $0.kind == .collection && $0.change == .changed })

        let trash = try await database.performChanges([.deleteAssets(ids: ids, permanently: false)])
        let trashed = try await database.history.committedChanges(after: trash.token.generation - 1, limit: 1)[0]
            .objects
        #expect(Set(["@album", "@inner", "@outer"].map { created[$0]! }).isSubset(of: Set(trashed.map(\.id))))
    }

    @Test func collectionQueriesFilterSortAndLimit() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([
            draft("a.jpg", created: "2020-01-01T00:00:00Z"), draft("b.jpg"), draft("c.jpg"),
        ])
        let created = try await database.performChanges([
            .createAlbum(title: "Été", placeholder: "@summer", parent: nil),
            .createAlbum(title: "winter", placeholder: "@winter", parent: nil),
            .createFolder(title: "Years", placeholder: "@years", parent: nil),
            .addAssets(target: "@summer", ids: ids), .addAssets(target: "@winter", ids: [ids[0]]),
        ]).created
        #expect(try await titles(database, CollectionQuery(predicate: "title ==[cd] 'ete'")) == ["Été"])
        #expect(try await titles(database, CollectionQuery(predicate: "kind == 'album' AND assetCount > 1")) == ["Été"])
        #expect(try await titles(database, CollectionQuery(kind: .folder, predicate: "assetCount == nil")) == ["Years"])
        #expect(
            try await titles(
                database,
                CollectionQuery(
                    predicate: "kind IN {'album', 'folder'}", sort: [SortDescriptor(key: "title", ascending: false)],
                    limit: 2))
                == ["Été", "winter"])
        #expect(
            try await titles(
                database,
                CollectionQuery(
                    predicate: "subtype == 'albumRegular' AND startDate < '2021-01-01T00:00:00Z'",
                    sort: [SortDescriptor(key: "assetCount")]))
                == ["winter", "Été"])
        let holders = try await database.fetchCollections(CollectionQuery(containingAsset: ids[0])).collections
        #expect(Set(holders.filter { $0.kind == .album }.map(\.id)) == [created["@summer"]!, created["@winter"]!])
        #expect(
            Set(holders.filter { $0.kind == .smartAlbum }.map(\.subtype)) == [
                .smartAlbumUserLibrary, .smartAlbumRecentlyAdded,
            ])
        #expect(holders.filter { $0.kind == .moment }.map(\.id) == ["moment-2020-01-01"])
        await #expect(throws: LibraryError.invalidParameter("query.parent")) {
            try await database.fetchCollections(CollectionQuery(parent: created["@summer"]!))
        }
        await #expect(throws: LibraryError.invalidParameter("query.sort.secret")) {
            try await database.fetchCollections(CollectionQuery(sort: [SortDescriptor(key: "secret")]))
        }
    }
}
