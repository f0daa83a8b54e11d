import Foundation
import Testing
import TestSupport
import Varlink

/// Albums, folders, smart albums, moments and the trash over the socket, against a library of every kind of asset.
@Suite(.serialized)
struct CollectionTests {
    private func collections(_ library: PopulatedDaemon, _ query: [String: JSONValue]) async throws -> [JSONValue] {
        try await library.call("FetchCollections", ["query": .object(query)])["collections"]?.arrayValue ?? []
    }

    private func titles(_ library: PopulatedDaemon, _ query: [String: JSONValue]) async throws -> [String] {
        try await collections(library, query).compactMap { $0["title"]?.stringValue }
    }

    private func ids(_ names: [String], _ ids: [String: String]) -> JSONValue {
        .array(names.map { .string(ids[$0]!) })
    }

    @Test func foldersNestToAnyDepthAndRefuseCycles() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let created = try #require(try await library.performChanges([
            ["op": "createFolder", "title": "Trips", "placeholder": "@trips"],
            ["op": "createFolder", "title": "2024", "placeholder": "@year", "parent": "@trips"],
            ["op": "createAlbum", "title": "Spring", "placeholder": "@spring", "parent": "@year"],
            ["op": "createAlbum", "title": "Summer", "placeholder": "@summer", "parent": "@year"],
            ["op": "createAlbum", "title": "Loose", "placeholder": "@loose"],
            ["op": "addAssets", "target": "@spring", "ids": ids(["plain", "live", "video"], assets)],
        ])["created"]?.objectValue)
        let trips = created["@trips"]!, year = created["@year"]!, spring = created["@spring"]!, loose = created["@loose"]!
        #expect(try await titles(library, ["topLevelUserCollections": true]) == ["Loose", "Trips"])
        #expect(try await titles(library, ["parent": trips]) == ["2024"])
        #expect(try await titles(library, ["parent": year]) == ["Spring", "Summer"])
        let springJSON = try #require(try await collections(library, ["ids": [spring]]).first)
        #expect(springJSON["parentId"] == year)
        #expect(springJSON["assetCount"] == 3)
        #expect(springJSON["startDate"] == "2024-01-02T10:00:00+01:00")
        #expect(springJSON["endDate"] == "2024-03-01T12:00:00+00:00")
        #expect(try await collections(library, ["ids": [trips]]).first?["assetCount"] == .null)

        let beforeAdding = try #require(try await library.token())
        _ = try await library.performChanges([["op": "addAssets", "target": spring, "ids": ids(["panorama"], assets)]])
        let added = try await library.call("FetchPersistentChanges", ["since": beforeAdding])["changes"]?[0]
        let updated = Set(added?["updatedCollectionIds"]?.arrayValue ?? [])
        #expect(updated.isSuperset(of: [spring, year, trips]))

        try await library.expectRefusal([["op": "addChildCollections", "target": year, "ids": [trips]]], "InvalidChange", index: 0)
        try await library.expectRefusal([
            ["op": "createFolder", "title": "Deeper", "placeholder": "@deeper", "parent": year],
            ["op": "addChildCollections", "target": "@deeper", "ids": [trips]],
        ], "InvalidChange", index: 1)
        try await library.expectRefusal([["op": "addChildCollections", "target": spring, "ids": [loose]]], "InvalidChange", index: 0)
        try await library.expectRefusal([["op": "moveChildCollections", "target": year, "indexes": [2], "toIndex": 0]],
                                        "InvalidChange", index: 0)

        _ = try await library.performChanges([
            ["op": "addChildCollections", "target": year, "ids": [loose]],
            ["op": "moveChildCollections", "target": year, "indexes": [2], "toIndex": 0],
            ["op": "updateCollection", "target": spring, "title": "Early Spring"],
        ])
        #expect(try await titles(library, ["parent": year]) == ["Loose", "Early Spring", "Summer"])
        #expect(try await titles(library, ["topLevelUserCollections": true]) == ["Trips"])
        _ = try await library.performChanges([["op": "removeChildCollections", "target": year, "ids": [loose]]])
        #expect(try await titles(library, ["topLevelUserCollections": true]) == ["Loose", "Trips"])

        let beforeDeletion = try #require(try await library.token())
        _ = try await library.performChanges([["op": "deleteCollections", "ids": [trips]]])
        #expect(try await titles(library, ["kind": "album"]) == ["Loose"])
        #expect(try await titles(library, ["kind": "folder"]).isEmpty)
        let history = try await library.call("FetchPersistentChanges", ["since": beforeDeletion])
        #expect(Set(history["changes"]?[0]?["deletedCollectionIds"]?.arrayValue ?? []) == Set([trips, year, spring, created["@summer"]!]))
        #expect(try await library.fetchIds().count == 10)
    }

    @Test func albumOrderFollowsInsertsMovesAndRemovals() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let album = try #require(try await library.performChanges([
            ["op": "createAlbum", "title": "Ordered", "placeholder": "@album"],
            ["op": "addAssets", "target": "@album", "ids": ids(["plain", "video", "live"], assets)],
            ["op": "insertAssets", "target": "@album", "ids": ids(["favorite", "screenshot"], assets), "indexes": [0, 4]],
        ])["created"]?["@album"])
        func order() async throws -> [String] {
            try await library.fetchIds(["collection": album]).map { id in assets.first { $0.value == id }!.key }
        }
        #expect(try await order() == ["favorite", "plain", "video", "live", "screenshot"])
        _ = try await library.performChanges([["op": "moveAssets", "target": album, "indexes": [0, 3], "toIndex": 1]])
        #expect(try await order() == ["plain", "favorite", "live", "video", "screenshot"])
        _ = try await library.performChanges([
            ["op": "removeAssets", "target": album, "ids": ids(["live"], assets)],
            ["op": "insertAssets", "target": album, "ids": ids(["trashed"], assets), "indexes": [1]],
        ])
        #expect(try await order() == ["plain", "favorite", "video", "screenshot"])
        _ = try await library.performChanges([["op": "restoreAssets", "ids": ids(["trashed"], assets)]])
        #expect(try await order() == ["plain", "trashed", "favorite", "video", "screenshot"])
        _ = try await library.performChanges([["op": "deleteAssets", "ids": ids(["trashed"], assets)]])

        try await library.expectRefusal([
            ["op": "addAssets", "target": album, "ids": ids(["panorama"], assets)],
            ["op": "insertAssets", "target": album, "ids": ids(["raw"], assets), "indexes": [-1]],
        ], "InvalidChange", index: 1, reason: "index -1 is out of range 0...5")
        try await library.expectRefusal([["op": "insertAssets", "target": album, "ids": ids(["raw"], assets), "indexes": [5]]],
                                        "InvalidChange", index: 0, reason: "index 5 is out of range 0...4")
        try await library.expectRefusal([["op": "moveAssets", "target": album, "indexes": [0], "toIndex": 4]],
                                        "InvalidChange", index: 0, reason: "toIndex 4 is out of range 0...3")
        try await library.expectRefusal([["op": "addAssets", "target": album, "ids": ["no-such-asset"]]], "NotFound", index: 0)
        let favorites = try #require(try await collections(library, ["subtype": "smartAlbumFavorites"]).first?["id"])
        try await library.expectRefusal([["op": "removeAssets", "target": favorites, "ids": ids(["favorite"], assets)]],
                                        "InvalidChange", index: 0)
        try await library.expectRefusal([["op": "updateCollection", "target": "moment-2024-03-01", "title": "Renamed"]],
                                        "InvalidChange", index: 0)
        try await library.expectRefusal([["op": "insertAssets", "target": "@nowhere", "ids": [], "indexes": []]],
                                        "InvalidChange", index: 0)
    }

    @Test func aTrashedAssetComesBackToItsPlaceInEveryAlbum() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let created = try #require(try await library.performChanges([
            ["op": "createAlbum", "title": "A", "placeholder": "@a"],
            ["op": "createAlbum", "title": "B", "placeholder": "@b"],
            ["op": "addAssets", "target": "@a", "ids": ids(["video", "plain", "live"], assets)],
            ["op": "addAssets", "target": "@b", "ids": ids(["plain", "favorite"], assets)],
        ])["created"]?.objectValue)
        let plain = try #require(assets["plain"])
        _ = try await library.performChanges([["op": "deleteAssets", "ids": [.string(plain)]]])
        #expect(try await library.fetchIds(["collection": created["@a"]!]) == [assets["video"]!, assets["live"]!])
        #expect(try await collections(library, ["ids": [created["@b"]!]]).first?["assetCount"] == 1)
        let deleted = try #require(try await collections(library, ["subtype": "smartAlbumRecentlyDeleted"]).first)
        #expect(Set(try await library.fetchIds(["collection": deleted["id"]!])) == [assets["trashed"]!, plain])
        let holders = try await collections(library, ["containingAsset": .string(plain)]).compactMap { $0["title"]?.stringValue }
        #expect(Set(holders) == ["A", "B", "Recently Deleted"])

        _ = try await library.performChanges([["op": "restoreAssets", "ids": [.string(plain)]]])
        #expect(try await library.fetchIds(["collection": created["@a"]!]) == [assets["video"]!, plain, assets["live"]!])
        #expect(try await library.fetchIds(["collection": created["@b"]!]) == [plain, assets["favorite"]!])
        let restored = try await library.call("FetchAssets", ["query": ["ids": [.string(plain)]]])
        #expect(restored["assets"]?[0]?["isTrashed"] == false)
    }

    @Test func smartAlbumCountsMatchADirectCount() async throws {
        let (library, _) = try await ModelLibrary.make()
        _ = try await library.performChanges([["op": "deleteAssets", "ids": [.string(library.assetIds[8])]]])
        let everything = try #require(try await library.call("FetchAssets", [
            "query": ["includeHidden": true, "includeTrashed": true, "includeAllBurstAssets": true],
            "includeResources": true, "pageSize": 1_000,
        ])["assets"]?.arrayValue)
        let oracle = SmartAlbumOracle(assets: everything)
        let smartAlbums = try await collections(library, ["kind": "smartAlbum"])
        #expect(smartAlbums.count == 11)
        for album in smartAlbums {
            let subtype = try #require(album["subtype"]?.stringValue)
            let members = everything.filter { oracle.holds(subtype, $0) }
            #expect(album["assetCount"] == .int(members.count), "\(subtype)")
            let fetched = try await library.call("FetchAssets", ["query": ["collection": album["id"]!], "pageSize": 1_000])
            #expect(fetched["count"] == .int(members.count), "\(subtype)")
            #expect(Set(fetched["assets"]?.arrayValue?.compactMap { $0["id"] } ?? []) == Set(members.compactMap { $0["id"] }))
            let dates = members.compactMap { $0["creationDate"]?.stringValue }.sorted { instant($0) < instant($1) }
            #expect(album["startDate"] == (dates.first.map(JSONValue.string) ?? .null), "\(subtype)")
            #expect(album["endDate"] == (dates.last.map(JSONValue.string) ?? .null), "\(subtype)")
        }
    }

    @Test func momentsBurstsAndEveryCollectionQueryField() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let moments = try await collections(library, ["kind": "moment"])
        #expect(moments.compactMap { $0["title"]?.stringValue } == [
            "2023-12-31", "2024-01-02", "2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04", "2024-05-05",
        ])
        #expect(moments.first { $0["id"] == "moment-2024-03-01" }?["assetCount"] == 2)
        #expect(try await library.fetchIds(["collection": "moment-2024-03-01"]) == [assets["live"]!, assets["video"]!])
        let holders = try await collections(library, ["containingAsset": .string(assets["video"]!)])
        #expect(Set(holders.compactMap { $0["subtype"]?.stringValue }) == [
            "smartAlbumUserLibrary", "smartAlbumVideos", "smartAlbumRecentlyAdded", "moment",
        ])

        #expect(try await library.fetchIds(["predicate": "burstIdentifier == 'burst'"]) == [assets["burst1"]!])
        #expect(try await library.fetchIds(["burstIdentifier": "burst"]) == ["burst1", "burst2", "burst3"].map { assets[$0]! })
        #expect(try await library.fetchIds(["predicate": "burstIdentifier != nil", "includeAllBurstAssets": true]).count == 3)

        #expect(try await titles(library, ["kind": "smartAlbum", "predicate": "assetCount > 1"]) == ["Library", "Recently Added", "Panoramas"])
        #expect(try await titles(library, ["subtype": "smartAlbumFavorites"]) == ["Favorites"])
        #expect(try await titles(library, ["kind": "smartAlbum", "predicate": "assetCount == 1 AND title BEGINSWITH[c] 'r'"])
            == ["Recently Deleted", "RAW"])
        #expect(try await titles(library, [
            "kind": "moment", "sort": [["key": "assetCount", "ascending": false], ["key": "title", "ascending": true]], "limit": 2,
        ]) == ["2024-03-01", "2024-03-02"])
        let page = try await library.call("FetchCollections", ["query": ["kind": "moment"], "offset": 5, "pageSize": 1])
        #expect(page["count"] == 7)
        #expect(page["collections"]?[0]?["title"] == "2024-03-04")
        await #expect { try await library.call("FetchCollections", ["query": ["predicate": "pixelWidth > 1"]]) } throws: {
            ($0 as? VarlinkError)?.name == "io.photolibd.Library.InvalidPredicate"
                && ($0 as? VarlinkError)?.parameters["reason"] == "unknown key 'pixelWidth' at position 0"
        }
        await #expect { try await library.call("FetchCollections", ["query": ["parent": "missing"]]) } throws: {
            ($0 as? VarlinkError)?.name == "io.photolibd.Library.NotFound"
        }
    }

    @Test func expiredTrashIsPurgedWithTheLibrarysOwnFilesOnly() async throws {
        let daemon = try DaemonProcess(extraConfig: "[trash]\nretention_days = 0")
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let copied = try ImageFixtures.image(at: photos.file("copied.jpg"))
        let referenced = try ImageFixtures.image(at: photos.file("referenced.jpg"), width: 90)
        let kept = try ImageFixtures.image(at: photos.file("kept.jpg"), width: 70)
        var connection = try await daemon.connect()
        func importFile(_ path: String, mode: String) async throws -> String {
            let reply = try await connection.call("io.photolibd.Import.ImportFiles", parameters: ["paths": [.string(path)], "mode": .string(mode)])
            return try #require(reply["files"]?[0]?["assetId"]?.stringValue)
        }
        func storedPath(_ id: String) async throws -> String {
            let reply = try await connection.call("io.photolibd.Library.FetchAssets", parameters: [
                "query": ["ids": [.string(id)], "includeTrashed": true], "includeResources": true,
            ])
            return try #require(reply["assets"]?[0]?["resources"]?[0]?["path"]?.stringValue)
        }
        let copiedId = try await importFile(copied, mode: "copy"), referencedId = try await importFile(referenced, mode: "reference")
        let keptId = try await importFile(kept, mode: "copy")
        let copiedStore = try await storedPath(copiedId), keptStore = try await storedPath(keptId)
        #expect(copiedStore.hasPrefix(daemon.libraryPath))
        _ = try await connection.call("io.photolibd.Library.PerformChanges", parameters: ["changes": [
            ["op": "deleteAssets", "ids": [.string(copiedId)]],
            ["op": "deleteAssets", "ids": [.string(referencedId)], "permanently": true],
        ]])
        #expect(FileManager.default.fileExists(atPath: referenced))
        #expect(FileManager.default.fileExists(atPath: copiedStore))
        let beforeRestart = try #require(try await connection.call("io.photolibd.Library.FetchAssets",
                                                                   parameters: ["query": [:], "pageSize": 0])["token"])
        await connection.close()

        try await daemon.stop()
        try await daemon.start()
        connection = try await daemon.connect()
        let purged = try await firstChange(after: beforeRestart, on: connection)
        #expect(purged?["deletedAssetIds"] == [.string(copiedId)])
        #expect(!FileManager.default.fileExists(atPath: copiedStore))
        #expect(FileManager.default.fileExists(atPath: keptStore))
        #expect(FileManager.default.fileExists(atPath: referenced))
        let remaining = try await connection.call("io.photolibd.Library.FetchAssets", parameters: ["query": ["includeTrashed": true]])
        #expect(remaining["assets"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [keptId])
        await connection.close()
    }

    /// Days pass while the daemon is down (the library file is set back as if the photo had been added 31 days
    /// ago); at start the daemon records that Recently Added lost it, so a client catching up learns of it.
    @Test func assetsThatLeftRecentlyAddedWhileTheDaemonWasDownAreAnnouncedAtStart() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        var connection = try await daemon.connect()
        _ = try await connection.call("io.photolibd.Import.ImportFiles", parameters: [
            "paths": [.string(try ImageFixtures.image(at: photos.file("old.jpg")))],
        ])
        let recentlyAdded = ["query": JSONValue.object(["subtype": "smartAlbumRecentlyAdded"])]
        let album = try #require(try await connection.call("io.photolibd.Library.FetchCollections", parameters: .object(recentlyAdded))["collections"]?[0])
        #expect(album["assetCount"] == 1)
        let beforeStop = try #require(try await connection.call("io.photolibd.Library.FetchAssets", parameters: ["query": [:], "pageSize": 0])["token"])
        await connection.close()
        try await daemon.stop()

        let monthAgo = Date().timeIntervalSince1970 - 31 * 86_400
        try runTool("/usr/bin/sqlite3", [daemon.libraryPath + "/library.sqlite", """
            UPDATE asset SET addedTime = \(monthAgo);
            UPDATE library_info SET recentlyAddedFirstDay = \(Int(monthAgo / 86_400) - 31);
            """])
        try await daemon.start()
        connection = try await daemon.connect()
        let announced = try await firstChange(after: beforeStop, on: connection)
        #expect(announced?["updatedCollectionIds"] == [try #require(album["id"])])
        #expect(try await connection.call("io.photolibd.Library.FetchCollections", parameters: .object(recentlyAdded))["collections"]?[0]?["assetCount"] == 0)
        await connection.close()
    }
}

/// The first change recorded after `token`, waiting up to a minute for the daemon's start-up work to record it.
private func firstChange(after token: JSONValue, on connection: VarlinkConnection) async throws -> JSONValue? {
    var first: JSONValue?
    try await eventually {
        first = try await connection.call("io.photolibd.Library.FetchPersistentChanges", parameters: ["since": token])["changes"]?
            .arrayValue?.first
        return first != nil
    }
    return first
}

/// The smart albums' rules written out over fetched assets, to count what each should hold.
private struct SmartAlbumOracle {
    let assets: [JSONValue]
    let representatives: Set<String>

    init(assets: [JSONValue]) {
        self.assets = assets
        let frames = Dictionary(grouping: assets.filter { $0["burstIdentifier"]?.stringValue != nil && $0["isTrashed"] == false }) {
            $0["burstIdentifier"]!.stringValue!
        }
        representatives = Set(frames.values.compactMap { frames in
            frames.min { lhs, rhs in
                let (left, right) = (lhs["creationDate"]?.stringValue.map(instant), rhs["creationDate"]?.stringValue.map(instant))
                return left == right ? lhs["id"]!.stringValue! < rhs["id"]!.stringValue! : (left ?? -.infinity) < (right ?? -.infinity)
            }?["id"]?.stringValue
        })
    }

    func holds(_ subtype: String, _ asset: JSONValue) -> Bool {
        let isFrame = asset["burstIdentifier"]?.stringValue != nil
        let standsForItself = !isFrame || asset["isTrashed"] == true || representatives.contains(asset["id"]!.stringValue!)
        let shown = asset["isHidden"] == false && asset["isTrashed"] == false && standsForItself
        let subtypes = Set(asset["mediaSubtypes"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let width = asset["pixelWidth"]?.intValue ?? 0, height = asset["pixelHeight"]?.intValue ?? 0
        switch subtype {
        case "smartAlbumUserLibrary": return shown
        case "smartAlbumRecentlyAdded":
            return shown && instant(asset["addedDate"]!.stringValue!) > Date().timeIntervalSince1970 - 30 * 86_400
        case "smartAlbumFavorites": return shown && asset["isFavorite"] == true
        case "smartAlbumVideos": return shown && asset["mediaType"] == "video"
        case "smartAlbumAllHidden": return asset["isHidden"] == true && asset["isTrashed"] == false && standsForItself
        case "smartAlbumPanoramas":
            return shown && asset["mediaType"] == "image" && (subtypes.contains("photoPanorama") || (height > 0 && width >= 2 * height))
        case "smartAlbumScreenshots": return shown && subtypes.contains("photoScreenshot")
        case "smartAlbumLivePhotos": return shown && subtypes.contains("photoLive")
        case "smartAlbumBursts": return shown && isFrame
        case "smartAlbumRecentlyDeleted": return asset["isTrashed"] == true
        case "smartAlbumRAW":
            return shown && (asset["resources"]?.arrayValue ?? []).contains {
                $0["type"] == "alternatePhoto" || $0["mimeType"]?.stringValue?.hasPrefix("image/x-") == true
            }
        default: return false
        }
    }
}

/// Seconds since 1970 of an RFC 3339 date the daemon wrote.
private func instant(_ text: String) -> Double {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)?.timeIntervalSince1970 ?? .nan
}
