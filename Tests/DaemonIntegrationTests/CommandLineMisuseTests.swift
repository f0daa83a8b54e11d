import Foundation
import Glibc
import PhotoLibrary
import TestSupport
import Testing

/// `photolib` as a person uses it in a shell, mistakes included: each error names the real problem.
@Suite(.serialized)
struct CommandLineMisuseTests {
    private static let photolib = DaemonProcess.productsDirectory + "/photolib"

    private func photolib(_ socket: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> ToolResult
    {
        try runTool(
            Self.photolib, ["--socket", socket] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new }, checked: false)
    }

    @Test func mistypedCommandsAndOptionsGetASuggestionAndEachCommandShowsItsOwnUsage() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let socket = daemon.socketPath
        for (typed, meant) in [
            (["asets"], "'assets'"), (["favourite", "abcd"], "'favorite'"), (["album", "craete", "X"], "'create'"),
            (["assets", "--incude-trashed"], "'--include-trashed'"),
        ] {
            let run = try photolib(socket, typed)
            #expect(
                run.status == 64 && run.errors.lowercased().contains("did you mean \(meant)?"),
                "\(typed): \(run.errors)")
        }
        let unknown = try photolib(socket, ["xyzzy"])
        #expect(
            unknown.status == 64 && unknown.errors.contains("the commands are: status, assets"), "\(unknown.errors)")
        #expect(try photolib(socket, ["--help"]).output.contains("SUBCOMMANDS:"))
        #expect(try photolib(socket, ["help", "assets"]).output.contains("--include-trashed"))

        // A mistake found as the command runs comes with that command's usage, not the top level's.
        for (arguments, usage) in [
            (["hide"], "Usage: photolib hide "), (["rate", "abcd", "7"], "Usage: photolib rate "),
        ] {
            let run = try photolib(socket, arguments)
            #expect(
                run.status == 64 && run.errors.contains(usage) && !run.errors.contains("<subcommand>"), "\(run.errors)")
        }
        try await daemon.stop()
    }

    @Test func referencesTakePrefixesAndTitlesAndRefuseTheWrongKindByName() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let socket = library.daemon.socketPath
        let plain = try #require(assets["plain"])
        let album = try photolib(socket, ["album", "create", "Summer"]).output.trimmingCharacters(
            in: .whitespacesAndNewlines)

        let added = try photolib(socket, ["album", "add", "Summer", String(plain.prefix(6))])
        #expect(added.status == 0 && added.output.contains("added \(plain.prefix(8)) plain.jpg to the album 'Summer'"))
        let info = try photolib(socket, ["info", String(plain.prefix(5))])
        #expect(info.status == 0 && info.output.contains("plain.jpg") && info.output.contains("Summer (album)"))

        let favorite = try photolib(socket, ["favorite", album])
        #expect(
            favorite.status == 1 && favorite.errors.contains("'\(album)' is the album 'Summer', not an asset"),
            "\(favorite.errors)")
        let intoAsset = try photolib(socket, ["album", "move", album, "--into", plain])
        #expect(
            intoAsset.status == 1 && intoAsset.errors.contains("'\(plain)' is an asset, not a folder"),
            "\(intoAsset.errors)")
        let nothing = try photolib(socket, ["favorite", "zzzz-not-an-id"])
        #expect(nothing.status == 1 && nothing.errors.contains("no asset has the id 'zzzz-not-an-id'"))

        let restore = try photolib(socket, ["restore", plain])
        #expect(restore.status == 1 && restore.errors.contains("is not in Recently Deleted; nothing restored"))
        // One change refused by the daemon: no "(change 0)" or "change 0" in the message.
        let edit = try photolib(socket, ["edit", plain, "--rotate", "90"])
        #expect(edit.status == 1 && !edit.errors.contains("change 0"), "\(edit.errors)")

        let permanently = try photolib(socket, ["trash", "--permanently", plain])
        #expect(permanently.status == 1 && permanently.errors.contains("add --yes"))
        #expect(try await library.fetchIds(AssetQuery(ids: [plain])) == [plain])
        let trashed = try photolib(socket, ["trash", plain])
        #expect(trashed.output.contains("moved \(plain.prefix(8)) plain.jpg to Recently Deleted"))
        try await library.daemon.stop()
    }

    @Test func listingsFilterByTypedDatesAndSuggestKeys() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let socket = library.daemon.socketPath
        func listed(_ arguments: [String]) throws -> [String] {
            try photolib(socket, ["assets", "--json"] + arguments, environment: ["TZ": "UTC"]).output.split(
                separator: "\n"
            ).map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["id"] as! String
            }
        }
        #expect(try listed(["--on", "2024-03-02"]) == [assets["panorama"], assets["taggedPanorama"]])
        #expect(
            try listed(["--since", "2024-03-03", "--until", "2024-03-04", "--where", "burstIdentifier == nil"])
                == [assets["raw"]])
        #expect(try listed(["--until", "2023"]).isEmpty, "23:00 at -05:00 on 31 December 2023 is 2024 in UTC")
        #expect(try listed(["--on", "2024-01-01"]) == [assets["screenshot"]])
        #expect(try listed(["--since", "2024-05"]) == [assets["favorite"]])

        let sort = try photolib(socket, ["assets", "--sort", "-fnumber"])
        #expect(
            sort.status == 64 && sort.errors.contains("did you mean 'fNumber'?")
                && sort.errors.contains("the keys are: "))
        let filter = try photolib(socket, ["assets", "--where", "pixelwidht > 10"])
        #expect(
            filter.status == 1 && filter.errors.contains("did you mean 'pixelWidth'?")
                && filter.errors.contains("creationDate"))
        let empty = try photolib(socket, ["assets", "--where", "pixelWidth > 100000"])
        #expect(empty.status == 0 && empty.output.isEmpty && empty.errors.contains("no assets match"))
        let badDate = try photolib(socket, ["assets", "--on", "2024-13-01"])
        #expect(badDate.status == 64)

        // The table shows the clock time where each photo was taken, to the second, and fits 80 columns.
        let table = try photolib(socket, ["assets"], environment: ["COLUMNS": "80"]).output.split(separator: "\n")
        #expect(table.allSatisfy { $0.count <= 80 }, "\(table)")
        #expect(table.contains { $0.contains("2024-05-05 05:05:05") && $0.contains("favorite.jpg") })
        for command in [
            ["albums", "--json"], ["smart", "--json"], ["status", "--json"], ["trash", "--json"],
            ["sources", "--json"],
        ] {
            let output = try photolib(socket, command).output
            for line in output.split(separator: "\n") {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(command): \(line)")
            }
        }
        try await library.daemon.stop()
    }

    @Test func importsSayWhatHappenedAndFailOnWhatWasNotImported() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: files.file("trip/day 1"), withIntermediateDirectories: true)
        let first = try ImageFixtures.image(
            at: files.file("trip/first.jpg"), width: 40, height: 30,
            exif: ["-DateTimeOriginal=2020:05:06 07:08:09"])
        _ = try ImageFixtures.image(at: files.file("trip/day 1/second.png"), width: 20, height: 20)
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: files.file("trip/notes.txt")))
        try Data("hidden".utf8).write(to: URL(fileURLWithPath: files.file("trip/.hidden.jpg")))
        let longAgo = Date(timeIntervalSince1970: 1_200_000_000)
        try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: first)

        let folder = try photolib(daemon.socketPath, ["import", files.file("trip")])
        #expect(folder.status == 1 && folder.errors.contains("is a folder: give -r"))
        let dryRun = try photolib(daemon.socketPath, ["import", "-r", "--dry-run", files.file("trip")])
        #expect(
            dryRun.output.contains("would import 2 files; 0 in the library already, 1 unsupported")
                && !dryRun.output.contains(".hidden"), "\(dryRun.output)")
        #expect(try await PhotoLibrary.connect(socketPath: daemon.socketPath).fetchAssets().count == 0)

        let imported = try photolib(daemon.socketPath, ["import", "-r", files.file("trip")])
        #expect(imported.status == 1, "the text file is unsupported")
        #expect(imported.output.contains("imported 2, duplicates 0, unsupported 1, failed 0"), "\(imported.output)")
        let again = try photolib(daemon.socketPath, ["import", first])
        #expect(again.status == 0 && again.output.contains("imported 0, duplicates 1, unsupported 0, failed 0"))

        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let stored = try #require(try await library.fetchAssets().assets.first { $0.originalFilename == "first.jpg" })
        let copy = try await library.requestImageData(for: stored.id).path
        let copyModified = try FileManager.default.attributesOfItem(atPath: copy)[.modificationDate] as? Date
        #expect(copy != first && copyModified == longAgo)
        // A camera time without an offset is the clock where the photo was taken, not UTC.
        let info = try photolib(daemon.socketPath, ["info", stored.id]).output
        #expect(info.contains("created   2020-05-06 07:08:09, time zone unknown"), "\(info)")
        #expect(try photolib(daemon.socketPath, ["assets"]).output.contains("2020-05-06 07:08:09"))
        await library.close()
        try await daemon.stop()
    }

    @Test func watchNamesAlbumsAndFollowsTheDaemonThroughARestart() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 2)
        let output = try TemporaryDirectory()
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: Self.photolib)
        watch.arguments = ["--socket", library.daemon.socketPath, "watch"]
        _ = FileManager.default.createFile(atPath: output.file("watch.log"), contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: output.file("watch.log")))
        watch.standardOutput = log
        watch.standardError = log
        try watch.run()
        defer { watch.terminate() }
        func printed() -> String { (try? String(contentsOfFile: output.file("watch.log"), encoding: .utf8)) ?? "" }
        #expect(try await eventually { printed().contains("all assets: 2 assets") })
        _ = try await library.change { _ = $0.createAlbum(title: "Harbour") }
        #expect(try await eventually { printed().contains("album 'Harbour' (") && printed().contains(") inserted") })

        try await library.daemon.stop()
        #expect(try await eventually { printed().contains("photolibd went away") })
        try await library.daemon.start()
        let client = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setFavorite(true, for: [library.assetIds[1]])
        _ = try await client.performChanges(changes)
        #expect(
            try await eventually { printed().contains("asset \(library.assetIds[1].prefix(8)) changed") },
            "\(printed())")
        #expect(
            printed().split(separator: "\n").allSatisfy { $0.first == " " || $0.first?.isNumber == true }, "time stamps"
        )
        await client.close()
        try await library.daemon.stop()
    }

    @Test func connectionProblemsAreNamed() async throws {
        let notASocket = try runTool(
            Self.photolib, ["status"], environment: ["PHOTOLIBD_SOCKET": "/etc/passwd"], checked: false)
        #expect(
            notASocket.status == 1 && notASocket.errors.contains("/etc/passwd is not a socket"), "\(notASocket.errors)")

        let nowhere = try TemporaryDirectory()
        let missing = try photolib(nowhere.file("socket"), ["status"])
        // From the checkout's build folder, the way to start it is the checkout's script.
        #expect(missing.errors.contains("`scripts/run-daemon` in ") && !missing.errors.contains("systemctl"))

        // A listener that accepts and never answers.
        let silent = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(silent) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = nowhere.file("silent")
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(silent, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0 && listen(silent, 4) == 0)
        let started = ContinuousClock.now
        let hung = try photolib(path, ["--timeout", "1", "status"])
        #expect(hung.status == 1 && hung.errors.contains("nothing answered on \(path) within 1 s"), "\(hung.errors)")
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func sourceErrorsNameTheProblem() async throws {
        let drop = try TemporaryDirectory()
        let daemon = try DaemonProcess(
            extraConfig: """
                [[source]]
                path = "\(drop.path)"
                mode = "move"
                """)
        try await daemon.start()
        let nope = try photolib(daemon.socketPath, ["sources", "remove", "/nope"])
        #expect(nope.status == 1 && nope.errors.contains("/nope is not an import source"))
        let configured = try photolib(daemon.socketPath, ["sources", "remove", drop.path])
        #expect(
            configured.errors.contains(
                "\(drop.path) cannot be removed: the config file \(daemon.configPath) defines this source"))
        let twice = try photolib(daemon.socketPath, ["sources", "add", drop.path, "--mode", "copy"])
        #expect(twice.errors.contains("it is a source already (move)"), "\(twice.errors)")

        // A drop folder says why a file stays, and when it removes a duplicate.
        try Data("plain text".utf8).write(to: URL(fileURLWithPath: drop.file("notes.txt")))
        let elsewhere = try TemporaryDirectory()
        let copy = try Data(
            contentsOf: URL(
                fileURLWithPath: try ImageFixtures.image(at: elsewhere.file("one.jpg"), width: 16, height: 16)))
        let photo = drop.file("one.jpg")
        try copy.write(to: URL(fileURLWithPath: photo))
        #expect(try await eventually { !FileManager.default.fileExists(atPath: photo) })
        try copy.write(to: URL(fileURLWithPath: drop.file("again.jpg")))
        #expect(try await eventually { daemon.log().contains("removed a duplicate from the drop folder") })
        #expect(daemon.log().contains("notes.txt") && daemon.log().contains("is not imported and stays there"))
        #expect(FileManager.default.fileExists(atPath: drop.file("notes.txt")))
        try await daemon.stop()
    }

    @Test func theBuiltInDropFolderIsNamedAsSuch() async throws {
        let home = try TemporaryDirectory()
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.file("config"), "XDG_DATA_HOME": home.file("data"),
            "XDG_CACHE_HOME": home.file("cache"), "XDG_RUNTIME_DIR": home.file("run"),
        ]
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: DaemonProcess.productsDirectory + "/photolibd")
        daemon.environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("PHOTOLIBD") && $0.key != "NOTIFY_SOCKET"
        }
        .merging(environment) { _, new in new }
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let socket = home.file("run/photolibd/socket")
        #expect(try await eventually { (try? photolib(socket, ["status"]))?.status == 0 })
        let removed = try photolib(socket, ["sources", "remove", home.file("data/photolibd/drop")])
        #expect(removed.status == 1 && removed.errors.contains("it is the built-in drop folder"), "\(removed.errors)")
        #expect(!removed.errors.contains("config file defines"))
    }
}
