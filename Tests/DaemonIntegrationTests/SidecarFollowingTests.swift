import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// Sidecars in watched folders (CONTRACT §14): never assets; their creation, change, rename and deletion by another
/// program reach the asset as one change event; they travel with their photo out of a drop folder; what is broken
/// is logged and ignored; nothing is lost across restarts and kill -9.
@Suite(.serialized)
struct SidecarFollowingTests {
    /// A reference folder holding `IMG_1.jpg`, the library watching it, and the photo's asset.
    private func referenceLibrary(sidecar: String? = nil) async throws -> (TemporaryDirectory, WatchedLibrary, Asset) {
        let watched = try TemporaryDirectory()
        try ImageFixtures.image(at: watched.file("IMG_1.jpg"), exif: ["-XMP-dc:Title=Embedded"])
        if let sidecar { try XMPText.write(sidecar, to: watched.file("IMG_1.jpg.xmp")) }
        let library = try await WatchedLibrary.start(sources: [(watched.path, "reference")])
        try await library.waitUntil("the photo is in the library") { try await library.asset(named: "IMG_1.jpg") != nil }
        return (watched, library, try #require(try await library.asset(named: "IMG_1.jpg")))
    }

    @Test func anExternalRewriteOfASidecarReachesAnObserverAsOneChange() async throws {
        let (watched, library, asset) = try await referenceLibrary(sidecar: SidecarFixtures.darktable(rating: 2))
        #expect(asset.annotations.rating == 2 && asset.annotations.keywords == ["cat", "Places|Paris"])
        #expect(try await library.assets().count == 1)
        let observer = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        var events = observer.observe(assetQueries: ["top": AssetQuery(predicate: "rating >= 4")]).makeAsyncIterator()
        _ = try await events.next()
        try runTool("/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP-xmp:Rating=4", watched.file("IMG_1.jpg.xmp")])
        let event = try #require(try await events.next())
        #expect(event.objects == [ObjectChange(id: asset.id, kind: .asset, change: .changed, contentChanged: false)])
        #expect(event.results.first?.insertedIds == [asset.id])
        let history = try String(contentsOfFile: watched.file("IMG_1.jpg.xmp"), encoding: .utf8)
        #expect(history.contains("darktable:history"))

        try FileManager.default.removeItem(atPath: watched.file("IMG_1.jpg.xmp"))
        try await library.waitUntil("the asset falls back to what the photo says") {
            try await library.asset(named: "IMG_1.jpg")?.annotations == Annotations(title: "Embedded")
        }
        await observer.close()
        await library.client.close()
        try await library.daemon.stop()
    }

    @Test func aPhotoAndItsSidecarRenamedTogetherKeepTheirAssetAndTheSidecarFollows() async throws {
        let (watched, library, asset) = try await referenceLibrary(sidecar: SidecarFixtures.darktable(rating: 3))
        try FileManager.default.createDirectory(atPath: watched.file("trip"), withIntermediateDirectories: true)
        #expect(rename(watched.file("IMG_1.jpg"), watched.file("trip/Paris.jpg")) == 0)
        #expect(rename(watched.file("IMG_1.jpg.xmp"), watched.file("trip/Paris.jpg.xmp")) == 0)
        try await library.waitUntil("the asset follows its renamed photo") {
            try await library.asset(named: "IMG_1.jpg")?.resources?.first?.path == watched.file("trip/Paris.jpg")
        }
        let moved = try #require(try await library.asset(named: "IMG_1.jpg"))
        #expect(moved.id == asset.id && moved.annotations.rating == 3)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setRating(1, for: [asset.id])
        _ = try await library.client.performChanges(changes)
        let followed = try await eventually(timeout: .seconds(30)) {
            try XMPText.exiftool(watched.file("trip/Paris.jpg.xmp"), ["-XMP-xmp:Rating"]).contains("Rating: 1")
        }
        #expect(followed)
        #expect(!FileManager.default.fileExists(atPath: watched.file("IMG_1.jpg.xmp")))
        #expect(try await library.assets().count == 1)
        await library.client.close()
        try await library.daemon.stop()
    }

    @Test(arguments: [("not XML", "nonsense"), ("truncated", String(SidecarFixtures.darktable(rating: 1).prefix(600))),
                      ("external entity", "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x/>")])
    func aBrokenSidecarIsLoggedWithItsPathAndThePhotoIsStillImported(name: String, text: String) async throws {
        let (watched, library, asset) = try await referenceLibrary(sidecar: text)
        #expect(asset.annotations == Annotations(title: "Embedded"), "\(name)")
        #expect(library.daemon.log().contains(watched.file("IMG_1.jpg.xmp")), "\(name)")
        await library.client.close()
        try await library.daemon.stop()
    }

    @Test func changesSurviveKillAndASidecarChangedWhileDownIsReadAtStart() async throws {
        let (watched, library, asset) = try await referenceLibrary(sidecar: SidecarFixtures.darktable(rating: 2))
        var changes = PhotoLibrary.ChangeBuilder()
        changes.updateKeywords(of: [asset.id], adding: ["kept"])
        _ = try await library.client.performChanges(changes)
        var restarted = try await library.restarted(afterKill: true)
        try await restarted.waitUntil("the keyword survived kill -9") {
            try await restarted.asset(named: "IMG_1.jpg")?.annotations.keywords.contains("kept") == true
        }
        await restarted.client.close()
        try await restarted.daemon.stop()
        try runTool("/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP-xmp:Rating=5", watched.file("IMG_1.jpg.xmp")])
        try await restarted.daemon.start()
        restarted = try await WatchedLibrary(daemon: restarted.daemon)
        try await restarted.waitUntil("the sidecar changed while the daemon was down is read at start") {
            try await restarted.asset(named: "IMG_1.jpg")?.annotations.rating == 5
        }
        await restarted.client.close()
        try await restarted.daemon.stop()
    }

    @Test func aSidecarDroppedWithItsPhotoGoesIntoTheLibraryWithIt() async throws {
        let drop = try TemporaryDirectory()
        let library = try await WatchedLibrary.start(sources: [(drop.path, "move")])
        let staging = try TemporaryDirectory()
        try ImageFixtures.image(at: staging.file("IMG_9.jpg"))
        try XMPText.write(SidecarFixtures.darktable(rating: 4), to: staging.file("IMG_9.jpg.xmp"))
        #expect(rename(staging.file("IMG_9.jpg.xmp"), drop.file("IMG_9.jpg.xmp")) == 0)
        #expect(rename(staging.file("IMG_9.jpg"), drop.file("IMG_9.jpg")) == 0)
        try await library.waitUntil("the pair leaves the drop folder") {
            try await library.asset(named: "IMG_9.jpg") != nil && filesUnder(drop.path).isEmpty
        }
        let asset = try #require(try await library.asset(named: "IMG_9.jpg"))
        #expect(asset.annotations.rating == 4)
        let stored = try #require(asset.resources?.first?.path)
        #expect(try XMPText.exiftool(stored + ".xmp", ["-XMP-darktable:all"]).contains("HistoryOperation: exposure"))
        #expect(try await library.assets().count == 1)
        await library.client.close()
        try await library.daemon.stop()
    }

    @Test func aSidecarThatCannotBeWrittenKeepsTheChangeAndInfoSaysSo() async throws {
        guard SmallFileSystem.canMount else { return }
        let volume = try SmallFileSystem(bytes: 1 << 20)
        try ImageFixtures.image(at: volume.path + "/IMG_1.jpg")
        let library = try await WatchedLibrary.start(sources: [(volume.path, "reference")])
        try await library.waitUntil("the photo is in the library") { try await library.asset(named: "IMG_1.jpg") != nil }
        let asset = try #require(try await library.asset(named: "IMG_1.jpg"))
        try runTool("/usr/bin/mount", ["-o", "remount,ro", volume.path])
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setRating(5, for: [asset.id])
        _ = try await library.client.performChanges(changes)
        let problem = try await eventually(timeout: .seconds(30)) { try await library.asset(named: "IMG_1.jpg")?.sidecar?.writeProblem }
        #expect(problem?.contains("Read-only file system") == true)
        #expect(try await library.asset(named: "IMG_1.jpg")?.annotations.rating == 5)
        let info = try runTool(DaemonProcess.productsDirectory + "/photolib", ["info", asset.id, "--socket", library.daemon.socketPath])
        #expect(info.output.contains("could not be written"))
        await library.client.close()
        try await library.daemon.stop()
        try runTool("/usr/bin/mount", ["-o", "remount,rw", volume.path])
    }
}

/// Sidecar text for these tests, and exiftool's reading of files.
enum XMPText {
    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// exiftool's `Tag: value` lines for `tags` of the file at `path`.
    static func exiftool(_ path: String, _ tags: [String]) throws -> String {
        try runTool("/usr/bin/exiftool", ["-s", "-s", "-sep", ", "] + tags + [path]).output
    }
}
