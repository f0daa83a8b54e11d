import Foundation
import Glibc
import PhotoLibrary
import TestSupport
import Testing

/// What a newcomer met in the first hour with `photolib`: messages that say what to do, output a script can read,
/// counts that match what will happen.
@Suite(.serialized)
struct FirstHourCommandLineTests {
    private static let photolib = DaemonProcess.productsDirectory + "/photolib"

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func aStoppedDaemonIsExplainedWithTheWayToStartItHereAndInJSON() throws {
        let nowhere = try TemporaryDirectory()
        let socket = nowhere.file("socket")
        let fromCheckout = try runTool(Self.photolib, ["--socket", socket, "assets"], checked: false)
        #expect(
            fromCheckout.status == 1
                && fromCheckout.errors.contains("`scripts/run-daemon` in \(ReadmeTourTests.checkout)"),
            "\(fromCheckout.errors)")
        // The same tool installed elsewhere names the systemd unit instead.
        try FileManager.default.copyItem(atPath: Self.photolib, toPath: nowhere.file("photolib"))
        let installed = try runTool(nowhere.file("photolib"), ["--socket", socket, "assets"], checked: false)
        #expect(
            installed.errors.contains("systemctl --user start photolibd.socket")
                && !installed.errors.contains("run-daemon"))

        let status = try runTool(Self.photolib, ["--socket", socket, "status", "--json"], checked: false)
        #expect(status.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
        #expect(object["running"] as? Bool == false && object["socket"] as? String == socket)
        #expect((object["error"] as? String)?.contains("photolibd is not running") == true)
    }

    @Test func statusSaysWhereTheLibraryDropFolderCacheAndSocketAreAndTheVersions() async throws {
        let drop = try TemporaryDirectory()
        let library = try await WatchedLibrary.start(sources: [(drop.path, "move")])
        let socket = ["--socket", library.daemon.socketPath]
        let text = try runTool(Self.photolib, socket + ["status"]).output
        for expected in [
            library.daemon.libraryPath, library.daemon.directory + "/cache", drop.path, library.daemon.socketPath,
            "version \(PhotolibVersion.current)",
        ] {
            #expect(text.contains(expected), "status does not say \(expected):\n\(text)")
        }
        let json = try runTool(Self.photolib, socket + ["status", "--json"]).output
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["running"] as? Bool == true && object["library"] as? String == library.daemon.libraryPath)
        #expect(
            object["dropFolders"] as? [String] == [drop.path]
                && object["daemonVersion"] as? String == PhotolibVersion.current)
    }

    @Test func aFileTheDropFolderLeavesIsNamedByStatusWhileItStays() async throws {
        let drop = try TemporaryDirectory()
        let library = try await WatchedLibrary.start(sources: [(drop.path, "move")])
        let socket = ["--socket", library.daemon.socketPath]
        #expect(try runTool(Self.photolib, socket + ["status"]).output.contains("0 failed, 1 source\n"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: drop.file("junk.txt")))
        let said = "1 file in the drop folder is not a photo, video or audio file: junk.txt"
        #expect(try await eventually { try runTool(Self.photolib, socket + ["status"]).output.contains(said) })
        let json = try runTool(Self.photolib, socket + ["status", "--json"]).output
        #expect(json.contains(#""leftInDropFolders":[{"path":"\#(drop.file("junk.txt"))""#), "\(json)")
        try FileManager.default.removeItem(atPath: drop.file("junk.txt"))
        #expect(!(try runTool(Self.photolib, socket + ["status"]).output.contains("junk.txt")))
    }

    @Test func anIdTooShortToBeOneAsksForFourCharacters() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let short = String(library.assetIds[0].prefix(3))
        let refused = try runTool(
            Self.photolib, ["--socket", library.daemon.socketPath, "info", short], checked: false)
        #expect(refused.status != 0 && refused.errors.contains("at least 4 characters"), "\(refused.errors)")
    }

    @Test func everyFieldTheJSONShowsIsAPredicateKeyOrTheRefusalSaysWhy() async throws {
        let (library, _) = try await ModelLibrary.make()
        let socket = ["--socket", library.daemon.socketPath]
        let first = try #require(lines(try runTool(Self.photolib, socket + ["assets", "--json"]).output).first)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]).keys
            .sorted()
        #expect(fields.contains("hasAdjustments") && fields.contains("location"))
        for field in fields {
            let run = try runTool(Self.photolib, socket + ["assets", "--where", "\(field) == nil"], checked: false)
            #expect(run.status == 0 || !run.errors.contains("unknown key"), "\(field): \(run.errors)")
            // Refused only with the reason: not a key at all, or a key of many values that wants ANY or IN.
            let saysWhy =
                run.errors.contains("is not a predicate key") || run.errors.contains("holds many values: use ANY")
            if run.status != 0 { #expect(saysWhy, "\(field): \(run.errors)") }
        }
        let edited = try runTool(Self.photolib, socket + ["assets", "--where", "hasAdjustments == YES"])
        #expect(edited.status == 0)
        let trashed = try runTool(
            Self.photolib, socket + ["assets", "--include-trashed", "--where", "isTrashed == YES"]
        ).output
        #expect(lines(trashed).count == 2 && trashed.contains("trashed.jpg"))
    }

    @Test func importWithoutATerminalPrintsOneSummaryLineOrProgressAScriptCanRead() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let paths = try (0..<3).map { try ImageFixtures.image(at: photos.file("p\($0).jpg"), width: 40, height: 30) }
        let socket = ["--socket", daemon.socketPath]
        let quiet = try runTool(Self.photolib, socket + ["import", paths[0], paths[1]])
        #expect(
            quiet.output == "imported 2, duplicates 0, unsupported 0, failed 0\n" && quiet.errors.isEmpty, "\(quiet)")
        let followed = try runTool(Self.photolib, socket + ["import", "--progress", paths[2], paths[0]])
        #expect(
            lines(followed.output) == [
                "progress 1/2", "progress 2/2", "imported 1, duplicates 1, unsupported 0, failed 0",
            ])
        try Data("text".utf8).write(to: URL(fileURLWithPath: photos.file("notes.txt")))
        let refused = try runTool(Self.photolib, socket + ["import", photos.file("notes.txt")], checked: false)
        #expect(refused.status == 1 && refused.errors.contains("notes.txt: unsupported: "))
        let listed = try runTool(Self.photolib, socket + ["import", "--list", paths[1]]).output
        #expect(lines(listed).count == 3 && listed.contains("duplicate"))
    }

    @Test func anInterruptedImportSaysWhatWasDoneAndWhatWasNotAndExitsWith130() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        // Enough files that the import is still going when the interrupt comes, however fast the machine: with 200
        // a quiet machine had imported them all before the test's first look at the progress.
        let paths = try MediaFixtures.writeVariants(0..<3_000, in: photos.path)
        let output = try TemporaryDirectory()
        let importer = Process()
        importer.executableURL = URL(fileURLWithPath: Self.photolib)
        importer.arguments = ["--socket", daemon.socketPath, "import", "--progress"] + paths
        for name in ["out", "err"] { _ = FileManager.default.createFile(atPath: output.file(name), contents: nil) }
        importer.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output.file("out")))
        importer.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: output.file("err")))
        try importer.run()
        func printed(_ name: String) -> String {
            (try? String(contentsOfFile: output.file(name), encoding: .utf8)) ?? ""
        }
        #expect(try await eventually { printed("out").contains("progress 1/3000") })
        kill(importer.processIdentifier, SIGINT)
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 130, "\(printed("err"))")
        // "interrupted: 82 of 3000 files done, about 2918 not imported"
        let summary = try #require(lines(printed("err")).first { $0.hasPrefix("interrupted: ") }, "\(printed("err"))")
        let counts = summary.split { !$0.isNumber }.compactMap { Int($0) }
        #expect(
            counts.count == 3 && counts[1] == 3_000 && counts[0] + counts[2] == 3_000 && counts[0] < 3_000, "\(summary)"
        )
        // The daemon stops within a file or two of its last progress reply and the file it is on.
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        #expect(try await eventually { try await library.importStatus().processing == 0 })
        let imported = try await library.fetchAssets().count
        #expect(imported <= counts[0] + 3, "\(summary); \(imported) imported")
        await library.close()
    }

    @Test func infoOfAPhotoshopExportIsCompactAndDatedByItsXMP() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let ancestors = (0..<120).map {
            "-XMP-photoshop:DocumentAncestors+=adobe:docid:photoshop:\($0)-\(UUID().uuidString)"
        }
        let export = try ImageFixtures.image(
            at: photos.file("export.jpg"), width: 40, height: 30,
            exif: [
                "-XMP-xmp:CreateDate=2019:03:14 10:22:31+01:00", "-XMP-xmpMM:DocumentID=xmp.did:0a1b2c3d",
                "-XMP-photoshop:Instructions=" + String(repeating: "Sonderangebot nur heute ", count: 20),
            ] + ancestors)
        let socket = ["--socket", daemon.socketPath]
        _ = try runTool(Self.photolib, socket + ["import", export])
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let asset = try #require(try await library.fetchAssets().assets.first)
        await library.close()
        #expect(
            asset.creationDateSource == .xmp && asset.creationDate?.rfc3339.hasPrefix("2019-03-14T10:22:31") == true)
        let info = try runTool(Self.photolib, socket + ["info", asset.id]).output
        #expect(info.contains("created   2019-03-14 10:22:31 +01:00 (XMP's creation date"), "\(info)")
        #expect(
            !info.contains("DocumentAncestors") && !info.contains("xmp.did:") && info.contains("--all shows them"),
            "\(info)")
        #expect(
            info.contains("Instructions = Sonderangebot nur heute") && lines(info).allSatisfy { $0.count < 160 },
            "\(info)")
        let all = try runTool(Self.photolib, socket + ["info", "--all", asset.id]).output
        #expect(
            all.contains("photoshop:DocumentAncestors = adobe:docid:photoshop:0-") && all.contains("photoshop:119-")
                && all.contains("xmp.did:0a1b2c3d"))
    }

    @Test func listingsMarkTrashedRowsAndEachVerbSaysWhatChanged() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let socket = ["--socket", library.daemon.socketPath]
        let listed = lines(try runTool(Self.photolib, socket + ["assets", "--include-trashed"]).output)
        #expect(listed.first?.contains("STATE") == true)
        #expect(
            listed.filter { $0.split(separator: " ").contains("trashed") }.map { $0.hasSuffix("trashed.jpg") } == [true]
        )
        let plain = try #require(assets["plain"]), favorite = try #require(assets["favorite"])
        #expect(try runTool(Self.photolib, socket + ["hide", plain]).output == "hid \(plain.prefix(8)) plain.jpg\n")
        #expect(
            try runTool(Self.photolib, socket + ["unhide", plain]).output == "unhid \(plain.prefix(8)) plain.jpg\n")
        #expect(
            try runTool(Self.photolib, socket + ["unhide", plain]).output
                == "\(plain.prefix(8)) plain.jpg: not hidden\n")
        let marked = lines(
            try runTool(Self.photolib, socket + ["favorite", "--where", "pixelWidth > 0", "--yes"]).output)
        #expect(marked.contains("\(favorite.prefix(8)) favorite.jpg: already a favorite"), "\(marked)")
        #expect(marked.filter { $0.hasPrefix("marked ") }.count == marked.count - 1, "\(marked)")
        try await library.daemon.stop()
    }

    @Test func everyIdWatchPrintsNamesWhatItWasPrintedFor() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let socket = ["--socket", library.daemon.socketPath]
        let output = try TemporaryDirectory()
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: Self.photolib)
        watch.arguments = socket + ["watch"]
        _ = FileManager.default.createFile(atPath: output.file("watch.log"), contents: nil)
        watch.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output.file("watch.log")))
        try watch.run()
        defer { watch.terminate() }
        func printed() -> String { (try? String(contentsOfFile: output.file("watch.log"), encoding: .utf8)) ?? "" }
        #expect(try await eventually { printed().contains("all assets: 1 asset\n") })
        let later = try ImageFixtures.image(
            at: library.photos.file("later.jpg"), exif: ["-DateTimeOriginal=2024:07:08 12:00:00"])
        _ = try runTool(Self.photolib, socket + ["import", later])
        let moment = try #require(
            try await eventually { lines(printed()).first { $0.contains(" moment '") } }, "\(printed())")
        // "12:00:00.000 moment '8 July 2024' (ID) inserted"
        let id = try #require(
            moment.split(separator: "(").dropFirst().first?.split(separator: ")").first.map(String.init))
        let listed = try runTool(Self.photolib, socket + ["assets", "--album", id], checked: false)
        #expect(listed.status == 0 && listed.output.contains("later.jpg"), "\(moment): \(listed.errors)")
        try await library.daemon.stop()
    }

    @Test func aDryRunCountsOnlyTheFilesTheLibraryDoesNotHave() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let paths = try (0..<3).map { try ImageFixtures.image(at: photos.file("p\($0).jpg"), width: 40, height: 30) }
        try FileManager.default.copyItem(atPath: paths[2], toPath: photos.file("copy of p2.jpg"))
        let socket = ["--socket", daemon.socketPath]
        _ = try runTool(Self.photolib, socket + ["import", paths[0]])
        let dryRun = try runTool(Self.photolib, socket + ["import", "-r", "--dry-run", photos.path]).output
        #expect(dryRun.contains("would import 2 files; 2 in the library already"), "\(dryRun)")
        #expect(lines(dryRun).contains { $0.hasPrefix("in library") && $0.hasSuffix("p0.jpg") })
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        #expect(try await library.fetchAssets().count == 1)
        await library.close()
    }

    @Test func aReferenceSourceLeavesItsUnchangedDuplicatesUnreadAtTheNextStart() async throws {
        let folder = try TemporaryDirectory()
        try MediaFixtures.jpegVariant(1).write(to: URL(fileURLWithPath: folder.file("one.jpg")))
        var library = try await WatchedLibrary.start(sources: [(folder.path, "reference")])
        try await library.waitUntil("the source is read") { try await library.assets().count == 1 }
        // A copy appears while the daemon is down; the next start reads it and finds it a duplicate.
        await library.client.close()
        try await library.daemon.stop()
        try MediaFixtures.jpegVariant(1).write(to: URL(fileURLWithPath: folder.file("one again.jpg")))
        try await library.daemon.start()
        library = try await WatchedLibrary(daemon: library.daemon)
        try await library.waitUntil("the copy is read") { library.daemon.log().contains("reconciled files=2 queued=1") }
        library = try await library.restarted()
        // (The log starts anew with each start.)
        try await library.waitUntil("the source is reconciled") { library.daemon.log().contains("reconciled") }
        let reconciled = try #require(
            library.daemon.log().components(separatedBy: "\n").last { $0.contains("reconciled") })
        #expect(reconciled.contains(" queued=0"), "\(reconciled)")
        // A duplicate that changes is read again, and imported.
        try MediaFixtures.jpegVariant(2).write(to: URL(fileURLWithPath: folder.file("one again.jpg")))
        try await library.waitUntil("the changed file is imported") { try await library.assets().count == 2 }
    }
}
