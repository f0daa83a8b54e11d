import Foundation
import PhotoModel
import Testing

@testable import LibraryStore

/// Smart albums, bursts and moments keep exact counts and dates, whatever happens to their assets.
struct SmartAlbumTests {
    /// A library with one asset of every kind the smart albums care about.
    private static func makeLibrary() async throws -> (LibraryDatabase, ids: [String: String]) {
        let (database, _) = try makeDatabase()
        var drafts: [(String, AssetDraft)] = []
        func add(
            _ name: String, created: String? = "2024-03-01T12:00:00+00:00", width: Int = 4000, height: Int = 3000,
            _ configure: (inout AssetDraft) -> Void = { _ in }
        ) {
            var asset = draft(name + ".jpg", created: created, width: width, height: height)
            configure(&asset)
            drafts.append((name, asset))
        }
        add("plain", created: "2024-01-02T10:00:00+01:00")
        add("undated", created: nil)
        add("video") {
            $0.mediaType = .video; $0.duration = 12
        }
        add("wideVideo", width: 4000, height: 1000) { $0.mediaType = .video }
        add("screenshot", created: "2023-12-31T23:00:00-05:00") { $0.mediaSubtypes = .photoScreenshot }
        add("live") { $0.mediaSubtypes = .photoLive }
        add("panoramaByShape", width: 8000, height: 4000)
        add("panoramaBySubtype", width: 100, height: 100) { $0.mediaSubtypes = .photoPanorama }
        add("nearlyPanorama", width: 7999, height: 4000)
        add("rawPair") {
            $0.resources.append(
                DraftResource(
                    type: .alternatePhoto, originalFilename: "rawPair.CR3", mimeType: "image/x-canon-cr3",
                    fileSize: 200, path: "/store/rawPair.CR3", isOwnedByLibrary: true))
        }
        add("dng") { $0.resources[0].mimeType = "image/x-adobe-dng" }
        add("burst1", created: "2024-03-01T12:00:01+00:00") { $0.burstIdentifier = "B" }
        add("burst2", created: "2024-03-01T12:00:02+00:00") { $0.burstIdentifier = "B" }
        add("burst3", created: "2024-03-01T12:00:03+00:00") { $0.burstIdentifier = "B" }
        add("selfie") { $0.camera.lensModel = "iPhone 12 front camera 2.71mm f/2.2" }
        add("slomo") {
            $0.mediaType = .video; $0.mediaSubtypes = .videoHighFrameRate
        }
        add("animated") { $0.mediaSubtypes = .photoAnimated }
        add("portrait") { $0.mediaSubtypes = .photoDepthEffect }
        add("favorite", created: "2024-05-05T05:05:05+05:00")
        add("hidden")
        add("trashed")
        let created = try await database.insert(drafts.map(\.1))
        let ids = Dictionary(uniqueKeysWithValues: zip(drafts.map(\.0), created))
        _ = try await database.performChanges([
            .updateAsset(target: ids["favorite"]!, AssetUpdate(isFavorite: true)),
            .updateAsset(target: ids["hidden"]!, AssetUpdate(isHidden: true)),
            .deleteAssets(ids: [ids["trashed"]!], permanently: false),
        ])
        return (database, ids)
    }

    /// Checks every smart album's count and dates against a fetch of it and against the expected members.
    private static func expectSmartAlbums(
        _ database: LibraryDatabase, _ ids: [String: String],
        _ expected: [CollectionSubtype: Set<String>],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let smartAlbums = try await database.fetchCollections(CollectionQuery(kind: .smartAlbum)).collections
        #expect(smartAlbums.count == CollectionSubtype.smartAlbums.count, sourceLocation: sourceLocation)
        for album in smartAlbums {
            let members = try await database.fetchAssets(AssetQuery(collection: album.id)).assets
            let names = Set(members.map { asset in ids.first { $0.value == asset.id }!.key })
            #expect(names == expected[album.subtype] ?? [], "\(album.subtype)", sourceLocation: sourceLocation)
            #expect(album.assetCount == members.count, "\(album.subtype)", sourceLocation: sourceLocation)
            let dates = members.compactMap(\.creationDate)
            #expect(album.startDate == dates.min(), "\(album.subtype)", sourceLocation: sourceLocation)
            #expect(album.endDate == dates.max(), "\(album.subtype)", sourceLocation: sourceLocation)
        }
    }

    @Test func everySmartAlbumCountsExactlyWhatItShows() async throws {
        let (database, ids) = try await Self.makeLibrary()
        let shown: Set = [
            "plain", "undated", "video", "wideVideo", "screenshot", "live", "panoramaByShape",
            "panoramaBySubtype", "nearlyPanorama", "rawPair", "dng", "burst1", "favorite", "selfie", "slomo",
            "animated", "portrait",
        ]
        var expected: [CollectionSubtype: Set<String>] = [
            .smartAlbumUserLibrary: shown, .smartAlbumRecentlyAdded: shown, .smartAlbumFavorites: ["favorite"],
            .smartAlbumVideos: ["video", "wideVideo", "slomo"], .smartAlbumAllHidden: ["hidden"],
            .smartAlbumSelfPortraits: ["selfie"], .smartAlbumSlomoVideos: ["slomo"], .smartAlbumAnimated: ["animated"],
            .smartAlbumDepthEffect: ["portrait"],
            .smartAlbumPanoramas: ["panoramaByShape", "panoramaBySubtype"], .smartAlbumScreenshots: ["screenshot"],
            .smartAlbumLivePhotos: ["live"], .smartAlbumBursts: ["burst1"], .smartAlbumRecentlyDeleted: ["trashed"],
            .smartAlbumRAW: ["rawPair", "dng"],
        ]
        try await Self.expectSmartAlbums(database, ids, expected)

        _ = try await database.performChanges([
            .deleteAssets(ids: [ids["burst1"]!, ids["rawPair"]!], permanently: false),
            .restoreAssets(ids: [ids["trashed"]!]),
            .updateAsset(target: ids["hidden"]!, AssetUpdate(isFavorite: true, isHidden: false)),
            .updateAsset(
                target: ids["favorite"]!, AssetUpdate(creationDate: .set(Timestamp(rfc3339: "1999-12-31T23:59:59Z")!))),
        ])
        let nowShown = shown.subtracting(["burst1", "rawPair"]).union(["burst2", "trashed", "hidden"])
        expected[.smartAlbumUserLibrary] = nowShown
        expected[.smartAlbumRecentlyAdded] = nowShown
        expected[.smartAlbumFavorites] = ["favorite", "hidden"]
        expected[.smartAlbumAllHidden] = []
        expected[.smartAlbumBursts] = ["burst2"]
        expected[.smartAlbumRecentlyDeleted] = ["burst1", "rawPair"]
        expected[.smartAlbumRAW] = ["dng"]
        try await Self.expectSmartAlbums(database, ids, expected)

        // The lens decides a selfie, whoever writes it (the camera-data backfill, for one).
        _ = try await database.performChanges([.deleteAssets(ids: [ids["animated"]!], permanently: false)])
        try await database.writer.writeUnrecorded { db in
            try db.execute(
                sql: "UPDATE asset SET lensModel = 'iPhone 15 back camera' WHERE id = ?", arguments: [ids["selfie"]!])
            try db.execute(
                sql: "UPDATE asset SET lensModel = 'Pixel 8 front camera' WHERE id = ?", arguments: [ids["plain"]!])
        }
        expected[.smartAlbumSelfPortraits] = ["plain"]
        expected[.smartAlbumAnimated] = []
        expected[.smartAlbumRecentlyDeleted]!.insert("animated")
        expected[.smartAlbumUserLibrary]!.remove("animated")
        expected[.smartAlbumRecentlyAdded]!.remove("animated")
        try await Self.expectSmartAlbums(database, ids, expected)

        _ = try await database.performChanges([.deleteAssets(ids: [ids["burst1"]!, ids["dng"]!], permanently: true)])
        expected[.smartAlbumRecentlyDeleted] = ["rawPair", "animated"]
        expected[.smartAlbumRAW] = []
        expected[.smartAlbumUserLibrary]!.remove("dng")
        expected[.smartAlbumRecentlyAdded]!.remove("dng")
        try await Self.expectSmartAlbums(database, ids, expected)
    }

    @Test func aBurstShowsItsFirstUntrashedFrameUnlessAllAreAskedFor() async throws {
        let (database, ids) = try await Self.makeLibrary()
        let frames = ["burst1", "burst2", "burst3"].map { ids[$0]! }
        #expect(try await database.fetchAssets(AssetQuery(ids: frames)).count == 3)
        #expect(try await database.fetchAssets(AssetQuery(burstIdentifier: "B")).assets.map(\.id) == frames)
        #expect(
            try await database.fetchAssets(AssetQuery(predicate: "burstIdentifier == 'B'")).assets.map(\.id) == [
                frames[0]
            ])
        #expect(
            try await database.fetchAssets(AssetQuery(predicate: "burstIdentifier == 'B'", includeAllBurstAssets: true))
                .count == 3)

        let trash = try await database.performChanges([.deleteAssets(ids: [frames[0]], permanently: false)])
        #expect(
            try await database.fetchAssets(AssetQuery(predicate: "burstIdentifier == 'B'")).assets.map(\.id) == [
                frames[1]
            ])
        let logged = try await database.history.committedChanges(after: trash.token.generation - 1, limit: 1)[0].objects
        #expect(logged.contains(ObjectChange(id: frames[1], kind: .asset, change: .changed)))

        _ = try await database.performChanges([
            .updateAsset(
                target: frames[2],
                AssetUpdate(
                    creationDate: .set(Timestamp(rfc3339: "2024-03-01T11:00:00Z")!)))
        ])
        #expect(
            try await database.fetchAssets(AssetQuery(predicate: "burstIdentifier == 'B'")).assets.map(\.id) == [
                frames[2]
            ])
    }

    @Test func momentsAreLocalDaysThatComeAndGoWithTheirAssets() async throws {
        let (database, _) = try makeDatabase()
        let ids = try await database.insert([
            draft("lateEvening.jpg", created: "2024-01-31T23:30:00-05:00"),
            draft("earlyMorning.jpg", created: "2024-02-01T01:00:00+09:00"),
            draft("sameDay.jpg", created: "2024-02-01T20:00:00+00:00"),
            draft("undated.jpg", created: nil),
        ])
        let moments = try await database.fetchCollections(CollectionQuery(kind: .moment)).collections
        #expect(moments.map(\.id) == ["moment-2024-01-31", "moment-2024-02-01"])
        #expect(moments.map(\.assetCount) == [1, 2])
        #expect(moments[1].startDate == Timestamp(rfc3339: "2024-02-01T01:00:00+09:00"))
        #expect(moments[1].endDate == Timestamp(rfc3339: "2024-02-01T20:00:00+00:00"))
        #expect(
            try await database.fetchAssets(AssetQuery(collection: "moment-2024-02-01")).assets.map(\.id) == [
                ids[1], ids[2],
            ])

        let trash = try await database.performChanges([.deleteAssets(ids: [ids[0]], permanently: false)])
        #expect(
            try await database.fetchCollections(CollectionQuery(kind: .moment)).collections.map(\.id) == [
                "moment-2024-02-01"
            ])
        let removed = try await database.history.committedChanges(after: trash.token.generation - 1, limit: 1)[0]
            .objects
        #expect(removed.contains(ObjectChange(id: "moment-2024-01-31", kind: .collection, change: .removed)))

        let restore = try await database.performChanges([
            .restoreAssets(ids: [ids[0]]),
            .updateAsset(
                target: ids[3],
                AssetUpdate(
                    creationDate: .set(Timestamp(rfc3339: "2024-02-01T12:00:00+00:00")!))),
        ])
        let back = try await database.fetchCollections(CollectionQuery(kind: .moment)).collections
        #expect(back.map(\.id) == ["moment-2024-01-31", "moment-2024-02-01"])
        #expect(back.map(\.assetCount) == [1, 3])
        let restored = try await database.history.committedChanges(after: restore.token.generation - 1, limit: 1)[0]
            .objects
        #expect(restored.contains(ObjectChange(id: "moment-2024-01-31", kind: .collection, change: .inserted)))
        #expect(restored.contains(ObjectChange(id: "moment-2024-02-01", kind: .collection, change: .changed)))

        let containing = try await database.fetchCollections(CollectionQuery(containingAsset: ids[1])).collections
        #expect(containing.contains { $0.id == "moment-2024-02-01" })
        await #expect(
            throws: LibraryError.invalidChange(index: 0, reason: "'moment-2024-02-01' is a moment and read-only")
        ) {
            try await database.performChanges([.addAssets(target: "moment-2024-02-01", ids: [ids[0]])])
        }
    }

    @Test func aReopenedLibraryKeepsItsTallies() async throws {
        let (database, path) = try makeDatabase()
        _ = try await database.insert([draft("a.jpg"), draft("b.jpg")])
        let before = try await database.fetchCollections(CollectionQuery(kind: .smartAlbum)).collections
        let reopened = try LibraryDatabase(path: path)
        #expect(try await reopened.fetchCollections(CollectionQuery(kind: .smartAlbum)).collections == before)
    }

    @Test func expiredTrashIsPurgedAsOneChangeWithItsOwnFiles() async throws {
        let (database, _) = try makeDatabase()
        var referenced = draft("referenced.jpg")
        referenced.resources[0].isOwnedByLibrary = false
        let ids = try await database.insert([draft("owned.jpg"), referenced, draft("kept.jpg")])
        let album = try await database.performChanges([
            .createAlbum(title: "A", placeholder: "@a", parent: nil), .addAssets(target: "@a", ids: ids),
            .deleteAssets(ids: [ids[0], ids[1]], permanently: false),
        ]).created["@a"]!
        #expect(try await database.purgeTrash(trashedBefore: Date().addingTimeInterval(-60)) == nil)
        let purge = try #require(try await database.purgeTrash(trashedBefore: Date().addingTimeInterval(60)))
        #expect(purge.purgedFiles == ["/store/owned.jpg"])
        let logged = try await database.history.committedChanges(after: purge.token.generation - 1, limit: 1)[0].objects
        #expect(logged.contains(ObjectChange(id: ids[0], kind: .asset, change: .removed)))
        #expect(logged.contains(ObjectChange(id: ids[1], kind: .asset, change: .removed)))
        #expect(logged.contains(ObjectChange(id: album, kind: .collection, change: .changed)))
        #expect(try await database.fetchAssets(AssetQuery(includeTrashed: true)).assets.map(\.id) == [ids[2]])
        #expect(
            try await database.fetchAssets(AssetQuery(collection: album, includeTrashed: true)).assets.map(\.id) == [
                ids[2]
            ])
    }
}
