import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// Albums, folders, smart albums, moments and the trash through the typed client, against a library of every kind
/// of asset.
@Suite(.serialized)
struct CollectionTests {
    private func ids(_ names: [String], _ ids: [String: String]) -> [String] {
        names.map { ids[$0]! }
    }

    @Test func foldersNestToAnyDepthAndRefuseCycles() async throws {
        let (library, assets) = try await ModelLibrary.make()
        var changes = PhotoLibrary.ChangeBuilder()
        let tripsPlaceholder = changes.createFolder(title: "Trips")
        let yearPlaceholder = changes.createFolder(title: "2024", in: tripsPlaceholder)
        let springPlaceholder = changes.createAlbum(title: "Spring", in: yearPlaceholder)
        let summerPlaceholder = changes.createAlbum(title: "Summer", in: yearPlaceholder)
        let loosePlaceholder = changes.createAlbum(title: "Loose")
        changes.addAssets(ids(["plain", "live", "video"], assets), to: springPlaceholder)
        let created = try await library.client.performChanges(changes).created
        let trips = created[tripsPlaceholder]!, year = created[yearPlaceholder]!, spring = created[springPlaceholder]!
        let loose = created[loosePlaceholder]!
        #expect(try await library.titles(CollectionQuery(topLevelUserCollections: true)) == ["Loose", "Trips"])
        #expect(try await library.titles(CollectionQuery(parent: trips)) == ["2024"])
        #expect(try await library.titles(CollectionQuery(parent: year)) == ["Spring", "Summer"])
        let springAlbum = try #require(try await library.collections(CollectionQuery(ids: [spring])).first)
        #expect(springAlbum.parentId == year)
        #expect(springAlbum.assetCount == 3)
        #expect(springAlbum.startDate?.rfc3339 == "2024-01-02T10:00:00+01:00")
        #expect(springAlbum.endDate?.rfc3339 == "2024-03-01T12:00:00+00:00")
        #expect(try #require(try await library.collections(CollectionQuery(ids: [trips])).first).assetCount == nil)

        let beforeAdding = try await library.token()
        _ = try await library.change { $0.addAssets(ids(["panorama"], assets), to: spring) }
        let updated = Set(
            try await library.client.fetchPersistentChanges(since: beforeAdding).changes.first?.updatedCollectionIds
                ?? [])
        #expect(updated.isSuperset(of: [spring, year, trips]))

        changes = PhotoLibrary.ChangeBuilder()
        changes.addChildCollections([trips], to: year)
        try await library.expectRefusal(changes, "InvalidChange", index: 0)
        changes = PhotoLibrary.ChangeBuilder()
        let deeper = changes.createFolder(title: "Deeper", in: year)
        changes.addChildCollections([trips], to: deeper)
        try await library.expectRefusal(changes, "InvalidChange", index: 1)
        changes = PhotoLibrary.ChangeBuilder()
        changes.addChildCollections([loose], to: spring)
        try await library.expectRefusal(changes, "InvalidChange", index: 0)
        changes = PhotoLibrary.ChangeBuilder()
        changes.moveChildCollections(at: [2], to: 0, in: year)
        try await library.expectRefusal(changes, "InvalidChange", index: 0)

        changes = PhotoLibrary.ChangeBuilder()
        changes.addChildCollections([loose], to: year)
        changes.moveChildCollections(at: [2], to: 0, in: year)
        changes.renameCollection(spring, to: "Early Spring")
        _ = try await library.client.performChanges(changes)
        #expect(try await library.titles(CollectionQuery(parent: year)) == ["Loose", "Early Spring", "Summer"])
        #expect(try await library.titles(CollectionQuery(topLevelUserCollections: true)) == ["Trips"])
        _ = try await library.change { $0.removeChildCollections([loose], from: year) }
        #expect(try await library.titles(CollectionQuery(topLevelUserCollections: true)) == ["Loose", "Trips"])

        let beforeDeletion = try await library.token()
        _ = try await library.change { $0.deleteCollections([trips]) }
        #expect(try await library.titles(CollectionQuery(kind: .album)) == ["Loose"])
        #expect(try await library.titles(CollectionQuery(kind: .folder)).isEmpty)
        let history = try await library.client.fetchPersistentChanges(since: beforeDeletion)
        #expect(
            Set(history.changes.first?.deletedCollectionIds ?? []) == [
                trips, year, spring, created[summerPlaceholder]!,
            ])
        #expect(try await library.fetchIds(AssetQuery()).count == 10)
    }

    @Test func albumOrderFollowsInsertsMovesAndRemovals() async throws {
        let (library, assets) = try await ModelLibrary.make()
        var changes = PhotoLibrary.ChangeBuilder()
        let placeholder = changes.createAlbum(title: "Ordered")
        changes.addAssets(ids(["plain", "video", "live"], assets), to: placeholder)
        changes.insertAssets(ids(["favorite", "screenshot"], assets), at: [0, 4], in: placeholder)
        let album = try #require(try await library.client.performChanges(changes).created[placeholder])
        func order() async throws -> [String] {
            try await library.fetchIds(AssetQuery(collection: album)).map { id in assets.first { $0.value == id }!.key }
        }
        func perform(_ build: (inout PhotoLibrary.ChangeBuilder) -> Void) async throws {
            var changes = PhotoLibrary.ChangeBuilder()
            build(&changes)
            _ = try await library.client.performChanges(changes)
        }
        func refusal(_ build: (inout PhotoLibrary.ChangeBuilder) -> Void) -> PhotoLibrary.ChangeBuilder {
            var changes = PhotoLibrary.ChangeBuilder()
            build(&changes)
            return changes
        }
        #expect(try await order() == ["favorite", "plain", "video", "live", "screenshot"])
        try await perform { $0.moveAssets(at: [0, 3], to: 1, in: album) }
        #expect(try await order() == ["plain", "favorite", "live", "video", "screenshot"])
        try await perform {
            $0.removeAssets(ids(["live"], assets), from: album)
            $0.insertAssets(ids(["trashed"], assets), at: [1], in: album)
        }
        #expect(try await order() == ["plain", "favorite", "video", "screenshot"])
        try await perform { $0.restoreAssets(ids(["trashed"], assets)) }
        #expect(try await order() == ["plain", "trashed", "favorite", "video", "screenshot"])
        try await perform { $0.deleteAssets(ids(["trashed"], assets)) }

        try await library.expectRefusal(
            refusal {
                $0.addAssets(ids(["panorama"], assets), to: album)
                $0.insertAssets(ids(["raw"], assets), at: [-1], in: album)
            }, "InvalidChange", index: 1, reason: "index -1 is out of range 0...5")
        try await library.expectRefusal(
            refusal { $0.insertAssets(ids(["raw"], assets), at: [5], in: album) },
            "InvalidChange", index: 0, reason: "index 5 is out of range 0...4")
        try await library.expectRefusal(
            refusal { $0.moveAssets(at: [0], to: 4, in: album) },
            "InvalidChange", index: 0, reason: "toIndex 4 is out of range 0...3")
        try await library.expectRefusal(refusal { $0.addAssets(["no-such-asset"], to: album) }, "NotFound", index: 0)
        let favorites = try #require(
            try await library.collections(CollectionQuery(subtype: .smartAlbumFavorites)).first?.id)
        try await library.expectRefusal(
            refusal { $0.removeAssets(ids(["favorite"], assets), from: favorites) },
            "InvalidChange", index: 0)
        try await library.expectRefusal(
            refusal { $0.renameCollection("moment-2024-03-01", to: "Renamed") },
            "InvalidChange", index: 0)
        try await library.expectRefusal(
            refusal { $0.insertAssets([], at: [], in: "@nowhere") }, "InvalidChange", index: 0)
    }

    @Test func aTrashedAssetComesBackToItsPlaceInEveryAlbum() async throws {
        let (library, assets) = try await ModelLibrary.make()
        var changes = PhotoLibrary.ChangeBuilder()
        let a = changes.createAlbum(title: "A"), b = changes.createAlbum(title: "B")
        changes.addAssets(ids(["video", "plain", "live"], assets), to: a)
        changes.addAssets(ids(["plain", "favorite"], assets), to: b)
        let created = try await library.client.performChanges(changes).created
        let albumA = try #require(created[a]), albumB = try #require(created[b])
        let plain = try #require(assets["plain"])
        _ = try await library.change { $0.deleteAssets([plain]) }
        #expect(try await library.fetchIds(AssetQuery(collection: albumA)) == [assets["video"]!, assets["live"]!])
        #expect(try await library.collections(CollectionQuery(ids: [albumB])).first?.assetCount == 1)
        let deleted = try #require(
            try await library.collections(CollectionQuery(subtype: .smartAlbumRecentlyDeleted)).first)
        #expect(Set(try await library.fetchIds(AssetQuery(collection: deleted.id))) == [assets["trashed"]!, plain])
        let holders = try await library.titles(CollectionQuery(containingAsset: plain))
        #expect(Set(holders) == ["A", "B", "Recently Deleted"])

        _ = try await library.change { $0.restoreAssets([plain]) }
        #expect(
            try await library.fetchIds(AssetQuery(collection: albumA)) == [assets["video"]!, plain, assets["live"]!])
        #expect(try await library.fetchIds(AssetQuery(collection: albumB)) == [plain, assets["favorite"]!])
        let restored = try await library.client.fetchAssets(matching: AssetQuery(ids: [plain])).assets
        #expect(restored.map(\.isTrashed) == [false])
    }

    @Test func smartAlbumCountsMatchADirectCount() async throws {
        let (library, _) = try await ModelLibrary.make()
        _ = try await library.change { $0.deleteAssets([library.assetIds[8]]) }
        let everything = try await library.client.fetchAllAssets(
            matching: AssetQuery(includeHidden: true, includeTrashed: true, includeAllBurstAssets: true),
            includeResources: true
        ).assets
        let oracle = SmartAlbumOracle(assets: everything)
        let smartAlbums = try await library.collections(CollectionQuery(kind: .smartAlbum))
        #expect(smartAlbums.count == 18)
        for album in smartAlbums {
            let members = everything.filter { oracle.holds(album.subtype, $0) }
            #expect(album.assetCount == members.count, "\(album.subtype)")
            let fetched = try await library.client.fetchAssets(
                matching: AssetQuery(collection: album.id), pageSize: 1_000)
            #expect(fetched.count == members.count, "\(album.subtype)")
            #expect(Set(fetched.assets.map(\.id)) == Set(members.map(\.id)))
            let dates = members.compactMap(\.creationDate).sorted()
            #expect(album.startDate == dates.first, "\(album.subtype)")
            #expect(album.endDate == dates.last, "\(album.subtype)")
        }
    }

    @Test func momentsBurstsAndEveryCollectionQueryField() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let moments = try await library.collections(CollectionQuery(kind: .moment))
        #expect(
            moments.map(\.title) == [
                "2023-12-31", "2024-01-02", "2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04", "2024-05-05",
            ])
        #expect(moments.first { $0.id == "moment-2024-03-01" }?.assetCount == 2)
        #expect(
            try await library.fetchIds(AssetQuery(collection: "moment-2024-03-01")) == [
                assets["live"]!, assets["video"]!,
            ])
        let holders = try await library.collections(CollectionQuery(containingAsset: assets["video"]!))
        #expect(
            Set(holders.map(\.subtype)) == [
                .smartAlbumUserLibrary, .smartAlbumVideos, .smartAlbumRecentlyAdded, .moment,
            ])

        #expect(try await library.fetchIds(AssetQuery(predicate: "burstIdentifier == 'burst'")) == [assets["burst1"]!])
        #expect(
            try await library.fetchIds(AssetQuery(burstIdentifier: "burst"))
                == ["burst1", "burst2", "burst3"].map { assets[$0]! })
        #expect(
            try await library.fetchIds(AssetQuery(predicate: "burstIdentifier != nil", includeAllBurstAssets: true))
                .count == 3)

        #expect(
            try await library.titles(CollectionQuery(kind: .smartAlbum, predicate: "assetCount > 1"))
                == ["Library", "Recently Added", "Panoramas"])
        #expect(try await library.titles(CollectionQuery(subtype: .smartAlbumFavorites)) == ["Favorites"])
        #expect(
            try await library.titles(
                CollectionQuery(kind: .smartAlbum, predicate: "assetCount == 1 AND title BEGINSWITH[c] 'r'"))
                == ["Recently Deleted", "RAW"])
        let sort = [SortDescriptor(key: "assetCount", ascending: false), SortDescriptor(key: "title")]
        #expect(
            try await library.titles(CollectionQuery(kind: .moment, sort: sort, limit: 2)) == [
                "2024-03-01", "2024-03-02",
            ])
        let page = try await library.client.fetchCollections(
            matching: CollectionQuery(kind: .moment), offset: 5, pageSize: 1)
        #expect(page.count == 7)
        #expect(page.collections.map(\.title) == ["2024-03-04"])
        await #expect {
            try await library.client.fetchCollections(matching: CollectionQuery(predicate: "pixelWidth > 1"))
        } throws: {
            let error = ($0 as? PhotoLibraryError)?.varlinkError
            return error?.name == "io.photolibd.Library.InvalidPredicate"
                && error?.parameters["reason"] == "unknown key 'pixelWidth' at position 0"
        }
        await #expect {
            try await library.client.fetchCollections(matching: CollectionQuery(parent: "missing"))
        } throws: {
            ($0 as? PhotoLibraryError)?.varlinkError?.name == "io.photolibd.Library.NotFound"
        }
    }

    @Test func expiredTrashIsPurgedWithTheLibrarysOwnFilesOnly() async throws {
        let daemon = try DaemonProcess(extraConfig: "[trash]\nretention_days = 0")
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let copied = try ImageFixtures.image(at: photos.file("copied.jpg"))
        let referenced = try ImageFixtures.image(at: photos.file("referenced.jpg"), width: 90)
        let kept = try ImageFixtures.image(at: photos.file("kept.jpg"), width: 70)
        var client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        func importFile(_ path: String, mode: ImportMode) async throws -> String {
            try #require(try await client.importFiles([path], mode: mode).files.first?.assetId)
        }
        func storedPath(_ id: String) async throws -> String {
            let assets = try await client.fetchAssets(
                matching: AssetQuery(ids: [id], includeTrashed: true), includeResources: true
            ).assets
            return try #require(assets.first?.resources?.first?.path)
        }
        let copiedId = try await importFile(copied, mode: .copy),
            referencedId = try await importFile(referenced, mode: .reference)
        let keptId = try await importFile(kept, mode: .copy)
        let copiedStore = try await storedPath(copiedId), keptStore = try await storedPath(keptId)
        #expect(copiedStore.hasPrefix(daemon.libraryPath))
        var changes = PhotoLibrary.ChangeBuilder()
        changes.deleteAssets([copiedId])
        changes.deleteAssets([referencedId], permanently: true)
        _ = try await client.performChanges(changes)
        #expect(FileManager.default.fileExists(atPath: referenced))
        #expect(FileManager.default.fileExists(atPath: copiedStore))
        let beforeRestart = try await client.fetchAssets(pageSize: 0).token
        await client.close()

        try await daemon.stop()
        try await daemon.start()
        client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let purged = try await firstChange(after: beforeRestart, on: client)
        #expect(purged?.deletedAssetIds == [copiedId])
        #expect(!FileManager.default.fileExists(atPath: copiedStore))
        #expect(FileManager.default.fileExists(atPath: keptStore))
        #expect(FileManager.default.fileExists(atPath: referenced))
        #expect(try await client.fetchAssets(matching: AssetQuery(includeTrashed: true)).assets.map(\.id) == [keptId])
        await client.close()
    }

    /// Days pass while the daemon is down (the library file is set back as if the photo had been added 31 days
    /// ago); at start the daemon records that Recently Added lost it, so a client catching up learns of it.
    @Test func assetsThatLeftRecentlyAddedWhileTheDaemonWasDownAreAnnouncedAtStart() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        var client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        _ = try await client.importFiles([try ImageFixtures.image(at: photos.file("old.jpg"))])
        let recentlyAdded = CollectionQuery(subtype: .smartAlbumRecentlyAdded)
        let album = try #require(try await client.fetchCollections(matching: recentlyAdded).collections.first)
        #expect(album.assetCount == 1)
        let beforeStop = try await client.fetchAssets(pageSize: 0).token
        await client.close()
        try await daemon.stop()

        let monthAgo = Date().timeIntervalSince1970 - 31 * 86_400
        try runTool(
            "/usr/bin/sqlite3",
            [
                daemon.libraryPath + "/library.sqlite",
                """
                UPDATE asset SET addedTime = \(monthAgo);
                UPDATE library_info SET recentlyAddedFirstDay = \(Int(monthAgo / 86_400) - 31);
                """,
            ])
        try await daemon.start()
        client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let announced = try await firstChange(after: beforeStop, on: client)
        #expect(announced?.updatedCollectionIds == [album.id])
        #expect(try await client.fetchCollections(matching: recentlyAdded).collections.first?.assetCount == 0)
        await client.close()
    }
}

/// The first change recorded after `token`, waiting up to a minute for the daemon's start-up work to record it.
private func firstChange(after token: String, on client: PhotoLibrary) async throws -> PersistentChange? {
    var first: PersistentChange?
    try await eventually {
        first = try await client.fetchPersistentChanges(since: token).changes.first
        return first != nil
    }
    return first
}

/// The smart albums' rules written out over fetched assets, to count what each should hold.
private struct SmartAlbumOracle {
    let representatives: Set<String>

    init(assets: [Asset]) {
        let frames = Dictionary(grouping: assets.filter { $0.burstIdentifier != nil && !$0.isTrashed }) {
            $0.burstIdentifier!
        }
        representatives = Set(
            frames.values.compactMap { frames in
                frames.min { lhs, rhs in
                    let (left, right) = (lhs.creationDate?.secondsSince1970, rhs.creationDate?.secondsSince1970)
                    return left == right ? lhs.id < rhs.id : (left ?? -.infinity) < (right ?? -.infinity)
                }?.id
            })
    }

    func holds(_ subtype: CollectionSubtype, _ asset: Asset) -> Bool {
        let isFrame = asset.burstIdentifier != nil
        let standsForItself = !isFrame || asset.isTrashed || representatives.contains(asset.id)
        let shown = !asset.isHidden && !asset.isTrashed && standsForItself
        let (width, height) = (asset.pixelWidth, asset.pixelHeight)
        switch subtype {
        case .smartAlbumUserLibrary: return shown
        case .smartAlbumRecentlyAdded:
            return shown && asset.addedDate.secondsSince1970 > Date().timeIntervalSince1970 - 30 * 86_400
        case .smartAlbumFavorites: return shown && asset.isFavorite
        case .smartAlbumVideos: return shown && asset.mediaType == .video
        case .smartAlbumAllHidden: return asset.isHidden && !asset.isTrashed && standsForItself
        case .smartAlbumPanoramas:
            return shown && asset.mediaType == .image
                && (asset.mediaSubtypes.contains(.photoPanorama) || (height > 0 && width >= 2 * height))
        case .smartAlbumScreenshots: return shown && asset.mediaSubtypes.contains(.photoScreenshot)
        case .smartAlbumLivePhotos: return shown && asset.mediaSubtypes.contains(.photoLive)
        case .smartAlbumBursts: return shown && isFrame
        case .smartAlbumRecentlyDeleted: return asset.isTrashed
        case .smartAlbumRAW:
            return shown
                && (asset.resources ?? []).contains { $0.type == .alternatePhoto || $0.mimeType.hasPrefix("image/x-") }
        case .smartAlbumSelfPortraits: return shown && asset.mediaSubtypes.contains(.photoSelfPortrait)
        case .smartAlbumSlomoVideos:
            return shown && asset.mediaType == .video && asset.mediaSubtypes.contains(.videoHighFrameRate)
        case .smartAlbumTimelapses:
            return shown && asset.mediaType == .video && asset.mediaSubtypes.contains(.videoTimelapse)
        case .smartAlbumAnimated:
            return shown && asset.mediaType == .image && asset.mediaSubtypes.contains(.photoAnimated)
        case .smartAlbumDepthEffect:
            return shown && asset.mediaType == .image && asset.mediaSubtypes.contains(.photoDepthEffect)
        default: return false
        }
    }
}
