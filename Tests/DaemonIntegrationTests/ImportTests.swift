import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Varlink

@Suite(.serialized)
struct ImportTests {
    @Test func threeJPEGsBecomeThreeAssetsWithSizesDatesAndGPS() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let paris = try ImageFixtures.image(at: photos.file("paris.jpg"), width: 400, height: 300, exif: [
            "-DateTimeOriginal=2024:01:31 10:15:00", "-OffsetTimeOriginal=+01:00",
            "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
        ])
        let sydney = try ImageFixtures.image(at: photos.file("sydney.jpg"), width: 300, height: 200, exif: [
            "-Orientation#=6", "-DateTimeOriginal=2023:12:25 18:30:05", "-OffsetTimeOriginal=+11:00",
            "-GPSLatitude=33.8568", "-GPSLatitudeRef=S", "-GPSLongitude=151.2153", "-GPSLongitudeRef=E",
            "-GPSAltitude=12", "-GPSAltitudeRef=0",
        ])
        let denver = try ImageFixtures.image(at: photos.file("denver.jpg"), width: 200, height: 100, exif: [
            "-DateTimeOriginal=2022:07:04 21:00:00", "-OffsetTimeOriginal=-06:00",
            "-GPSLatitude=39.7392", "-GPSLatitudeRef=N", "-GPSLongitude=104.9903", "-GPSLongitudeRef=W",
        ])
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let imported = try await library.importFiles([paris, sydney, denver])
        #expect(imported.files.map(\.status) == [.imported, .imported, .imported])

        let fetched = try await library.fetchAssets()
        #expect(fetched.count == 3)
        let assets = fetched.assets
        // Default order: creationDate ascending.
        #expect(assets.map { $0.originalFilename } == ["denver.jpg", "sydney.jpg", "paris.jpg"])
        let denverAsset = assets[0], sydneyAsset = assets[1], parisAsset = assets[2]
        #expect(parisAsset.pixelWidth == 400 && parisAsset.pixelHeight == 300)
        #expect(sydneyAsset.pixelWidth == 200 && sydneyAsset.pixelHeight == 300)
        #expect(sydneyAsset.orientation == 6)
        #expect(parisAsset.creationDate?.rfc3339 == "2024-01-31T10:15:00+01:00")
        #expect(sydneyAsset.creationDate?.rfc3339 == "2023-12-25T18:30:05+11:00")
        #expect(denverAsset.creationDate?.rfc3339 == "2022-07-04T21:00:00-06:00")
        #expect(abs((parisAsset.location?.latitude ?? 0) - 48.8584) < 1e-4)
        #expect(abs((sydneyAsset.location?.latitude ?? 0) + 33.8568) < 1e-4)
        #expect(abs((sydneyAsset.location?.altitude ?? 0) - 12) < 1e-6)
        #expect(abs((denverAsset.location?.longitude ?? 0) + 104.9903) < 1e-4)
        #expect(parisAsset.mediaType.rawValue == "image")
        #expect(parisAsset.fileSize == Int64(try FileManager.default.attributesOfItem(atPath: paris)[.size] as! UInt64))
        await library.close()
        try await daemon.stop()
    }

    /// A camera that records no offset but has a GPS clock (UTC) gets the offset the two clocks imply; when they
    /// disagree by more than a few minutes, the daemon's own offset is used and the source says so.
    @Test func aCameraClockWithoutAnOffsetTakesTheOneItsGPSClockImplies() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let dated = ["-DateTimeOriginal=2024:07:01 21:30:00", "-GPSDateStamp=2024:07:01"]
        let tokyo = try ImageFixtures.image(at: photos.file("tokyo.jpg"), exif: dated + ["-GPSTimeStamp=12:29:30"])
        let delhi = try ImageFixtures.image(at: photos.file("delhi.jpg"), width: 90, exif: dated + ["-GPSTimeStamp=16:01:10"])
        let stale = try ImageFixtures.image(at: photos.file("stale.jpg"), width: 70, exif: dated + ["-GPSTimeStamp=12:52:30"])
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        _ = try await library.importFiles([tokyo, delhi, stale])
        let byName = Dictionary(uniqueKeysWithValues: try await library.fetchAssets().assets.map { ($0.originalFilename, $0) })
        #expect(byName["tokyo.jpg"]?.creationDate?.rfc3339 == "2024-07-01T21:30:00+09:00")
        #expect(byName["tokyo.jpg"]?.creationDateSource == .exifWithGPSOffset)
        #expect(byName["delhi.jpg"]?.creationDate?.rfc3339 == "2024-07-01T21:30:00+05:30")
        #expect(byName["stale.jpg"]?.creationDate?.rfc3339.hasPrefix("2024-07-01T21:30:00") == true)
        #expect(byName["stale.jpg"]?.creationDateSource == .exifWithoutOffset)
        await library.close()
        try await daemon.stop()
    }

    @Test func copiesLandInTheStoreAndSourcesStay() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let photo = try ImageFixtures.image(at: photos.file("IMG_0001.jpg"), exif: ["-DateTimeOriginal=2021:03:04 05:06:07"])
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        _ = try await library.importFiles([photo])
        let resource = try #require(try await library.fetchAssets(includeResources: true).assets.first?.resources?.first)
        let storedPath = try #require(resource.path)
        #expect(storedPath.hasPrefix(daemon.libraryPath + "/originals/2021/03/"))
        #expect(resource.type == .photo)
        #expect(resource.mimeType == "image/jpeg")
        #expect(FileManager.default.contentsEqual(atPath: storedPath, andPath: photo))
        #expect(FileManager.default.fileExists(atPath: photo))
        await library.close()
    }

    @Test func badFilesAreReportedAndNothingIsLost() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let empty = files.file("empty.jpg")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let text = files.file("notes.jpg")
        try "just some text".write(toFile: text, atomically: true, encoding: .utf8)
        let document = files.file("notes.txt")
        try "a document".write(toFile: document, atomically: true, encoding: .utf8)
        let good = try ImageFixtures.image(at: files.file("good.jpg"))
        let truncated = files.file("truncated.jpg")
        let goodBytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try goodBytes.prefix(20).write(to: URL(fileURLWithPath: truncated))
        let missing = files.file("missing.jpg")

        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let imported = try await library.importFiles([empty, text, document, truncated, missing, good, good])
        #expect(imported.files.map(\.status) == [.failed, .failed, .unsupported, .failed, .failed, .imported, .duplicate])
        #expect(imported.files.compactMap(\.error).allSatisfy { !$0.isEmpty })
        for path in [empty, text, document, truncated, good] {
            #expect(FileManager.default.fileExists(atPath: path))
        }
        let status = try await library.importStatus()
        #expect(status.imported == 1)
        #expect(status.failed == 4)
        #expect(status.lastError?.contains("missing.jpg") == true)
        #expect(try await library.fetchAssets().count == 1)
        #expect(daemon.isRunning)
        await library.close()
    }

    @Test func progressStreamsWithMore() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let paths = try (0..<3).map { try ImageFixtures.image(at: photos.file("p\($0).png")) }
        let connection = try await daemon.connect()
        var replies: [JSONValue] = []
        for try await reply in connection.stream("io.photolibd.Import.ImportFiles",
                                                 parameters: JSONValue.object(["paths": .array(paths.map(JSONValue.string))]),
                                                 returning: JSONValue.self) {
            replies.append(reply)
        }
        #expect(replies.map { $0["processed"]?.intValue } == [1, 2, 3])
        #expect(replies.last?["files"]?.arrayValue?.count == 3)
        #expect(replies.dropLast().allSatisfy { $0["files"] == nil })
        await connection.close()
    }

    /// A caller other than the daemon's user (here `nobody`, allowed by `[access] users`) imports what it could read
    /// itself and nothing else, though the daemon, running as root, could read everything.
    @Test(.enabled(if: getuid() == 0, "switching to another user needs root"))
    func aCallerImportsOnlyFilesItCouldReadItself() async throws {
        let nobody: UInt32 = 65534
        let daemon = try DaemonProcess(extraConfig: "[access]\nusers = [\(nobody)]\n")
        try await daemon.start()
        let files = try TemporaryDirectory()
        let shared = try ImageFixtures.image(at: files.file("shared.jpg"))
        let secret = try ImageFixtures.image(at: files.file("secret.jpg"))
        #expect(chmod(secret, 0o600) == 0)
        try FileManager.default.createDirectory(atPath: files.file("private"), withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        let hidden = try ImageFixtures.image(at: files.file("private/hidden.jpg"))
        // A copy of the client where `nobody` can run it: the build folder may be in a home only root can enter.
        let tools = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: DaemonProcess.productsDirectory + "/photolib", toPath: tools.file("photolib"))
        // Whatever the umask, `nobody` may reach the socket, the client and the files meant to be shared.
        for (path, mode) in [(files.path, 0o755), (shared, 0o644), (hidden, 0o644), (daemon.directory, 0o755),
                             (daemon.directory + "/run", 0o755), (tools.path, 0o755), (tools.file("photolib"), 0o755)] {
            #expect(chmod(path, mode_t(mode)) == 0)
        }

        func asNobody(_ arguments: [String]) throws -> ToolResult {
            try runTool("/usr/bin/setpriv", ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--",
                                             tools.file("photolib"), "--socket", daemon.socketPath] + arguments, checked: false)
        }
        let imported = try asNobody(["import", "--list", shared, secret, hidden])
        #expect(imported.status == 1)
        let rows = imported.output.split(separator: "\n").dropFirst().dropLast().map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.map { $0.first } == ["imported", "failed", "failed"])
        #expect(imported.output.components(separatedBy: "the calling user cannot read this file").count == 3)

        let added = try asNobody(["sources", "add", files.file("private"), "--mode", "reference"])
        #expect(added.status != 0 && added.errors.contains("the calling user cannot read this folder"))
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        #expect(try await library.fetchAssets().assets.map(\.originalFilename) == ["shared.jpg"])
        #expect(try await library.listSources().isEmpty)
        await library.close()
        try await daemon.stop()
    }
}
