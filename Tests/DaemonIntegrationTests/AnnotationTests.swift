import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// Ratings, keywords, titles and captions (CONTRACT §14) through the daemon: read at import from files and
/// sidecars written by exiftool, changed with `updateAsset`, searched with predicates, written back to sidecars.
@Suite(.serialized)
struct AnnotationTests {
    @Test func importReadsEmbeddedXMPAndIPTCAndTheSidecarWins() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let xmp = try ImageFixtures.image(at: files.file("xmp.jpg"), exif: [
            "-XMP-xmp:Rating=4", "-XMP-lr:HierarchicalSubject=Places|Paris", "-XMP-dc:Subject=Paris", "-XMP-dc:Subject=cat",
            "-XMP-dc:Title=Rooftops", "-XMP-dc:Description=Beach day in town",
        ])
        let iptc = try ImageFixtures.image(at: files.file("iptc.jpg"), width: 90, exif: [
            "-IPTC:Keywords=harbour", "-IPTC:ObjectName=Morning", "-IPTC:Caption-Abstract=Fog over the beach",
        ])
        let sidecarred = try ImageFixtures.image(at: files.file("both.jpg"), width: 70, exif: ["-XMP-xmp:Rating=1", "-XMP-dc:Title=Embedded"])
        try runTool("/usr/bin/exiftool", ["-q", "-o", files.file("both.jpg.xmp"), "-XMP-xmp:Rating=5", "-XMP-dc:Subject=dog"])
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await library.importFiles([xmp, iptc, sidecarred]).files.compactMap(\.assetId)
        try #require(ids.count == 3)
        let assets = Dictionary(uniqueKeysWithValues: try await library.fetchAssets().assets.map { ($0.id, $0.annotations) })
        #expect(assets[ids[0]] == Annotations(rating: 4, keywords: ["Places|Paris", "cat"], title: "Rooftops",
                                               caption: "Beach day in town"))
        #expect(assets[ids[1]] == Annotations(rating: 0, keywords: ["harbour"], title: "Morning", caption: "Fog over the beach"))
        #expect(assets[ids[2]] == Annotations(rating: 5, keywords: ["dog"], title: "Embedded"))

        func matching(_ predicate: String) async throws -> Set<String> {
            Set(try await library.fetchAllAssets(matching: AssetQuery(predicate: predicate)).assets.map(\.id))
        }
        #expect(try await matching("rating >= 4") == [ids[0], ids[2]])
        #expect(try await matching("ANY keywords == 'cat'") == [ids[0]])
        #expect(try await matching("'Places|Paris' IN keywords") == [ids[0]])
        #expect(try await matching("caption CONTAINS[c] 'beach'") == [ids[0], ids[1]])
        #expect(try await matching("NONE keywords BEGINSWITH 'Places|' AND title != nil") == [ids[1], ids[2]])
        await #expect(throws: PhotoLibraryError.self) { _ = try await matching("keywords == 'cat'") }
        await library.close()
        try await daemon.stop()
    }

    @Test func updatesChangeTheFieldsAndBadValuesAreInvalidChanges() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let photo = try ImageFixtures.image(at: files.file("a.jpg"), exif: ["-XMP-dc:Subject=old", "-XMP-dc:Subject=keep"])
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let id = try #require(try await library.importFiles([photo]).files.first?.assetId)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setRating(-1, for: [id])
        changes.updateKeywords(of: [id], adding: ["Places|Rome", "new"], removing: ["old"])
        changes.setTitle("  Spaced  ", for: id)
        changes.setCaption("A caption", for: id)
        _ = try await library.performChanges(changes)
        var asset = try #require(try await library.fetchAssets(matching: AssetQuery(ids: [id])).assets.first)
        #expect(asset.annotations == Annotations(rating: -1, keywords: ["keep", "Places|Rome", "new"], title: "Spaced",
                                                 caption: "A caption"))
        changes = PhotoLibrary.ChangeBuilder()
        changes.setCaption(nil, for: id)
        changes.setKeywords([], for: id)
        _ = try await library.performChanges(changes)
        asset = try #require(try await library.fetchAssets(matching: AssetQuery(ids: [id])).assets.first)
        #expect(asset.annotations == Annotations(rating: -1, keywords: [], title: "Spaced"))

        for bad in [ChangeRequest(op: "updateAsset", target: id, rating: 6),
                    ChangeRequest(op: "updateAsset", target: id, rating: -2),
                    ChangeRequest(op: "updateAsset", target: id, addKeywords: [String(repeating: "k", count: 1_001)])] {
            let error = try await #require(throws: PhotoLibraryError.self) { try await library.performChanges([bad]) }
            #expect(error.code == .invalidChange, "\(error)")
        }
        await library.close()
        try await daemon.stop()
    }

    @Test func aWriteBackIsReadByExiftoolWithTheForeignNamespaceKeptAndTheOriginalUntouched() async throws {
        let watched = try TemporaryDirectory()
        let photo = try ImageFixtures.image(at: watched.file("IMG_1.jpg"), exif: ["-XMP-xmp:Rating=2"])
        let original = try Data(contentsOf: URL(fileURLWithPath: photo))
        let sidecar = watched.file("IMG_1.jpg.xmp")
        try XMPText.write(SidecarFixtures.darktable(rating: 3), to: sidecar)
        let library = try await WatchedLibrary.start(sources: [(watched.path, "reference")])
        try await library.waitUntil("the photo is in the library") { try await library.asset(named: "IMG_1.jpg") != nil }
        let asset = try #require(try await library.asset(named: "IMG_1.jpg"))
        #expect(asset.annotations.rating == 3)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setRating(5, for: [asset.id])
        changes.updateKeywords(of: [asset.id], adding: ["Places|Paris"])
        _ = try await library.client.performChanges(changes)
        let written = try await eventually(timeout: .seconds(30)) { () -> String? in
            let read = try XMPText.exiftool(sidecar, ["-XMP-xmp:Rating", "-XMP-lr:HierarchicalSubject", "-XMP-darktable:all"])
            return read.contains("Rating: 5") ? read : nil
        }
        let read = try #require(written)
        #expect(read.contains("HierarchicalSubject: cat, Places|Paris"))
        #expect(read.contains("Xmp_version: 5") && read.contains("HistoryOperation: exposure"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == original)
        let info = try runTool(DaemonProcess.productsDirectory + "/photolib", ["info", asset.id, "--socket", library.daemon.socketPath])
        #expect(info.output.contains("rating    ★★★★★") && info.output.contains("sidecar   \(sidecar)"))
        await library.client.close()
        try await library.daemon.stop()
    }

    @Test func writeBackOffLeavesSidecarsAloneAndAReloadTurnsItOn() async throws {
        let daemon = try DaemonProcess(extraConfig: "metadata_write_back = \"off\"")
        try await daemon.start()
        let files = try TemporaryDirectory()
        let photo = try ImageFixtures.image(at: files.file("b.jpg"))
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let id = try #require(try await library.importFiles([photo]).files.first?.assetId)
        let stored = try #require(try await library.fetchAssets(matching: AssetQuery(ids: [id]), includeResources: true)
            .assets.first?.resources?.first?.path)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setRating(4, for: [id])
        _ = try await library.performChanges(changes)
        try await Task.sleep(for: .milliseconds(500))
        #expect(!FileManager.default.fileExists(atPath: stored + ".xmp"))

        let config = try String(contentsOfFile: daemon.configPath, encoding: .utf8)
        try config.replacingOccurrences(of: "metadata_write_back = \"off\"", with: "metadata_write_back = \"sidecar\"")
            .write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
        daemon.send(SIGHUP)
        let reloaded = try await eventually(timeout: .seconds(30)) { daemon.log().contains("reloaded") }
        #expect(reloaded)
        changes = PhotoLibrary.ChangeBuilder()
        changes.setRating(5, for: [id])
        _ = try await library.performChanges(changes)
        let written = try await eventually(timeout: .seconds(30)) { FileManager.default.fileExists(atPath: stored + ".xmp") }
        #expect(written)
        let mode = try FileManager.default.attributesOfItem(atPath: stored + ".xmp")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        await library.close()
        try await daemon.stop()
    }

    @Test func theCommandLineRatesTagsTitlesAndCaptions() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let photo = try ImageFixtures.image(at: files.file("c.jpg"))
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let id = try #require(try await library.importFiles([photo]).files.first?.assetId)
        func photolib(_ arguments: [String]) throws -> String {
            try runTool(DaemonProcess.productsDirectory + "/photolib", arguments + ["--socket", daemon.socketPath]).output
        }
        #expect(try photolib(["rate", id, "4"]).contains("★★★★☆"))
        #expect(try photolib(["rate", id, "reject"]).contains("rejected"))
        #expect(try photolib(["tag", id, "+cat", "+Places|Paris", "-cat"]).contains("Places|Paris"))
        _ = try photolib(["title", id, "Roofs", "of", "Paris"])
        _ = try photolib(["caption", id, "Seen from the hill"])
        let info = try photolib(["info", id])
        #expect(info.contains("rating    rejected") && info.contains("keywords  Places|Paris"))
        #expect(info.contains("title     Roofs of Paris") && info.contains("caption   Seen from the hill"))
        let json = try photolib(["assets", "--json", "--where", "ANY keywords == 'Places|Paris'"])
        #expect(json.contains("\"rating\":-1") || json.contains("\"rating\" : -1"))
        let misuse = try runTool(DaemonProcess.productsDirectory + "/photolib",
                                 ["rate", id, "9", "--socket", daemon.socketPath], checked: false)
        #expect(misuse.status != 0 && misuse.errors.contains("0 to 5"))
        await library.close()
        try await daemon.stop()
    }
}
