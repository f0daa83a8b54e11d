import Foundation
import PhotoLibrary
import Synchronization
import TestSupport
import Testing

/// Duplicates found as photos arrive (CONTRACT §17), from real photographs: scikit-image's, which scripts/setup
/// installs from PyPI. Copies made as people make them (re-saved at quality 70, scaled to half, re-tagged) join their
/// original's group, best first; a pan's neighbouring frame and blank pictures stay apart; a merge keeps the best and
/// a restore brings the copy back into the group.
struct DuplicateDetectionTests {
    /// Runs the `vips` command.
    private static func vips(_ arguments: String...) throws {
        try runTool("/usr/bin/vips", arguments)
    }

    @Test func copiesGroupAsTheyArriveNearMissesStayApartAndAMergeKeepsTheBest() async throws {
        let samples = try SamplePhotos.folder()
        let library = try await ImageLibrary.start()
        let file = library.photos.file
        try Self.vips("copy", samples + "/chelsea.png", file("cat.jpg") + "[Q=92]")
        try Self.vips("copy", file("cat.jpg"), file("cat-q70.jpg") + "[Q=70]")
        try Self.vips("resize", file("cat.jpg"), file("cat-half.jpg") + "[Q=92]", "0.5")
        try Self.vips("copy", samples + "/coffee.png", file("coffee.jpg") + "[Q=92]")
        try FileManager.default.copyItem(atPath: file("coffee.jpg"), toPath: file("coffee-tagged.jpg"))
        try runTool(
            "/usr/bin/exiftool", ["-q", "-overwrite_original", "-Artist=Someone Else", file("coffee-tagged.jpg")])
        // Two frames of a pan across one photo, a fifth of the width apart: the same scene, not the same picture.
        try Self.vips("crop", samples + "/astronaut.png", file("pan-1.jpg"), "0", "0", "400", "400")
        try Self.vips("crop", samples + "/astronaut.png", file("pan-2.jpg"), "80", "0", "400", "400")
        // Blank frames of one colour have no structure: never "similar".
        try Self.vips("black", file("blank-1.png"), "300", "200")
        try Self.vips("black", file("blank-2.jpg"), "600", "400")
        let names = [
            "cat.jpg", "cat-q70.jpg", "cat-half.jpg", "coffee.jpg", "coffee-tagged.jpg", "pan-1.jpg", "pan-2.jpg",
            "blank-1.png", "blank-2.jpg",
        ]
        let client = library.client
        // An observer of the Duplicates album sees its count follow the groups, live.
        let album = try #require(
            try await client.fetchCollections(matching: CollectionQuery(subtype: .smartAlbumDuplicates)).collections
                .first)
        let observer = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        let observedCounts = Mutex<[Int]>([])
        let observing = Task {
            for try await event in observer.observe(assetQueries: ["duplicates": AssetQuery(collection: album.id)]) {
                if let result = event.results.first(where: { $0.name == "duplicates" }) {
                    observedCounts.withLock { $0.append(result.count) }
                }
            }
        }
        defer { observing.cancel() }
        let ids = Dictionary(uniqueKeysWithValues: zip(names, try await library.importByReference(names.map(file))))

        let found = try await eventually { () -> [[String]]? in
            let groups = try await client.fetchDuplicates()
            return groups.count == 2 && groups.joined().count == 5 ? groups : nil
        }
        let groups = try #require(found)
        // Best first: more pixels, then the larger file, then the earlier added.
        let cats = try #require(groups.first { $0.contains(ids["cat.jpg"]!) })
        #expect(cats == [ids["cat.jpg"]!, ids["cat-q70.jpg"]!, ids["cat-half.jpg"]!])
        let coffees = try #require(groups.first { $0.contains(ids["coffee.jpg"]!) })
        #expect(coffees == [ids["coffee-tagged.jpg"]!, ids["coffee.jpg"]!])
        let counted = try #require(
            try await client.fetchCollections(matching: CollectionQuery(ids: [album.id])).collections.first)
        #expect(counted.assetCount == 5)
        #expect(try await eventually { observedCounts.withLock { $0.last } == 5 })
        #expect(
            try await client.fetchAllAssets(matching: AssetQuery(collection: album.id)).assets.map(\.id)
                == groups.flatMap { $0 })

        var merge = PhotoLibrary.ChangeBuilder()
        merge.mergeDuplicates(cats)
        _ = try await client.performChanges(merge)
        #expect(try await client.fetchDuplicates() == [coffees])
        #expect(try await eventually { observedCounts.withLock { $0.last } == 2 })
        let trashed = try await client.fetchAllAssets(matching: AssetQuery(ids: cats, includeTrashed: true)).assets
        #expect(trashed.filter(\.isTrashed).map(\.id).sorted() == cats.dropFirst().sorted())

        var restore = PhotoLibrary.ChangeBuilder()
        restore.restoreAssets([ids["cat-half.jpg"]!])
        _ = try await client.performChanges(restore)
        #expect(Set(try await client.fetchDuplicates()) == [coffees, [ids["cat.jpg"]!, ids["cat-half.jpg"]!]])

        // Members of two groups are not one group: nothing changes.
        var wrong = PhotoLibrary.ChangeBuilder()
        wrong.mergeDuplicates([ids["cat.jpg"]!, ids["coffee.jpg"]!])
        await #expect(throws: PhotoLibraryError.self) { _ = try await client.performChanges(wrong) }
        #expect(try await client.fetchDuplicates().count == 2)
    }

    /// A copy merged away from a watched folder stays out of the library: rewriting it does not bring it back, nor does
    /// a restart's reconciliation once Recently Deleted was emptied; a restore by hand does.
    @Test func aCopyMergedAwayFromAWatchedFolderIsNotImportedAgain() async throws {
        let samples = try SamplePhotos.folder()
        let folder = try TemporaryDirectory()
        try Self.vips("copy", samples + "/rocket.jpg", folder.file("rocket.jpg") + "[Q=92]")
        try Self.vips("copy", folder.file("rocket.jpg"), folder.file("rocket-q70.jpg") + "[Q=70]")
        var library = try await WatchedLibrary.start(sources: [(folder.path, "reference")])
        let client = library.client
        let found = try await eventually { () -> [[String]]? in
            let groups = try await client.fetchDuplicates()
            return groups.first?.count == 2 ? groups : nil
        }
        let group = try #require(found?.first)
        var merge = PhotoLibrary.ChangeBuilder()
        merge.mergeDuplicates(group)
        _ = try await client.performChanges(merge)

        // The file rewritten with its own bytes is read again, and stays a duplicate of the kept asset.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("rocket-q70.jpg")))
        try bytes.write(to: URL(fileURLWithPath: folder.file("rocket-q70.jpg")))
        try await Task.sleep(for: .seconds(2))
        try await library.waitUntil("the rewritten copy is read") { true }
        #expect(try await library.assets().map(\.id) == [group[0]])

        var purge = PhotoLibrary.ChangeBuilder()
        purge.deleteAssets([group[1]], permanently: true)
        _ = try await client.performChanges(purge)
        library = try await library.restarted()
        try await library.waitUntil("the folder is reconciled") { true }
        #expect(try await library.assets(includeTrashed: true).map(\.id) == [group[0]])
        #expect(FileManager.default.fileExists(atPath: folder.file("rocket-q70.jpg")), "no user file is deleted")
    }

    /// A merge is one transaction: a daemon killed (-9) while merging has, after its restart, either merged all of it
    /// (the copy in Recently Deleted, the kept photo with the copy's keyword and favorite) or none of it.
    @Test func aMergeCutByKillNineIsAllOrNothing() async throws {
        let samples = try SamplePhotos.folder()
        let library = try await ImageLibrary.start()
        let file = library.photos.file
        try Self.vips("copy", samples + "/coffee.png", file("coffee.jpg") + "[Q=92]")
        try Self.vips("copy", file("coffee.jpg"), file("coffee-q70.jpg") + "[Q=70]")
        let ids = try await library.importByReference([file("coffee.jpg"), file("coffee-q70.jpg")])
        var annotate = PhotoLibrary.ChangeBuilder()
        annotate.setFavorite(true, for: [ids[1]])
        annotate.setKeywords(["market"], for: ids[1])
        _ = try await library.client.performChanges(annotate)
        let grouped = try await eventually { try await library.client.fetchDuplicates() == [ids] }
        #expect(grouped)

        var outcomes: [Bool] = []
        for attempt in 0..<6 {
            let client = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
            var merge = PhotoLibrary.ChangeBuilder()
            merge.mergeDuplicates(ids)
            let merging = Task { try? await client.performChanges(merge) }
            try await Task.sleep(for: .milliseconds(attempt * 4))
            try await library.daemon.kill9()
            _ = await merging.value
            try await library.daemon.start()
            let restarted = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
            let assets = try await restarted.fetchAllAssets(matching: AssetQuery(ids: ids, includeTrashed: true)).assets
            let kept = try #require(assets.first { $0.id == ids[0] }),
                copy = try #require(assets.first { $0.id == ids[1] })
            let merged = copy.isTrashed
            #expect(kept.isFavorite == merged && kept.annotations.keywords.contains("market") == merged)
            #expect(!kept.isTrashed)
            outcomes.append(merged)
            if merged { break }
        }
        #expect(outcomes.last == true || outcomes.count == 6, "\(outcomes)")
    }
}
