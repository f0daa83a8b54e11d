import Foundation
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
        let connection = try await daemon.connect()
        let reply = try await connection.call("io.photolibd.Import.ImportFiles", parameters: .object([
            "paths": .array([paris, sydney, denver].map(JSONValue.string)),
        ]))
        let files = try #require(reply["files"]?.arrayValue)
        #expect(files.map { $0["status"]?.stringValue } == ["imported", "imported", "imported"])

        let fetched = try await connection.call("io.photolibd.Library.FetchAssets", parameters: .object(["query": .object([:])]))
        #expect(fetched["count"]?.intValue == 3)
        let assets = try #require(fetched["assets"]?.arrayValue)
        // Default order: creationDate ascending.
        #expect(assets.map { $0["originalFilename"]?.stringValue } == ["denver.jpg", "sydney.jpg", "paris.jpg"])
        let denverAsset = assets[0], sydneyAsset = assets[1], parisAsset = assets[2]
        #expect(parisAsset["pixelWidth"]?.intValue == 400 && parisAsset["pixelHeight"]?.intValue == 300)
        #expect(sydneyAsset["pixelWidth"]?.intValue == 200 && sydneyAsset["pixelHeight"]?.intValue == 300)
        #expect(sydneyAsset["orientation"]?.intValue == 6)
        #expect(parisAsset["creationDate"]?.stringValue == "2024-01-31T10:15:00+01:00")
        #expect(sydneyAsset["creationDate"]?.stringValue == "2023-12-25T18:30:05+11:00")
        #expect(denverAsset["creationDate"]?.stringValue == "2022-07-04T21:00:00-06:00")
        #expect(abs((parisAsset["location"]?["latitude"]?.doubleValue ?? 0) - 48.8584) < 1e-4)
        #expect(abs((sydneyAsset["location"]?["latitude"]?.doubleValue ?? 0) + 33.8568) < 1e-4)
        #expect(abs((sydneyAsset["location"]?["altitude"]?.doubleValue ?? 0) - 12) < 1e-6)
        #expect(abs((denverAsset["location"]?["longitude"]?.doubleValue ?? 0) + 104.9903) < 1e-4)
        #expect(parisAsset["mediaType"]?.stringValue == "image")
        #expect(parisAsset["fileSize"]?.intValue == Int(try FileManager.default.attributesOfItem(atPath: paris)[.size] as! UInt64))
        await connection.close()
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
        let connection = try await daemon.connect()
        _ = try await connection.call("io.photolibd.Import.ImportFiles", parameters: .object([
            "paths": .array([tokyo, delhi, stale].map(JSONValue.string)),
        ]))
        let fetched = try await connection.call("io.photolibd.Library.FetchAssets", parameters: .object(["query": .object([:])]))
        let byName = Dictionary(uniqueKeysWithValues: try #require(fetched["assets"]?.arrayValue).map {
            ($0["originalFilename"]?.stringValue ?? "", $0)
        })
        #expect(byName["tokyo.jpg"]?["creationDate"] == "2024-07-01T21:30:00+09:00")
        #expect(byName["tokyo.jpg"]?["creationDateSource"] == "exifWithGPSOffset")
        #expect(byName["delhi.jpg"]?["creationDate"] == "2024-07-01T21:30:00+05:30")
        #expect(byName["stale.jpg"]?["creationDate"]?.stringValue?.hasPrefix("2024-07-01T21:30:00") == true)
        #expect(byName["stale.jpg"]?["creationDateSource"] == "exifWithoutOffset")
        await connection.close()
        try await daemon.stop()
    }

    @Test func copiesLandInTheStoreAndSourcesStay() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let photo = try ImageFixtures.image(at: photos.file("IMG_0001.jpg"), exif: ["-DateTimeOriginal=2021:03:04 05:06:07"])
        let connection = try await daemon.connect()
        _ = try await connection.call("io.photolibd.Import.ImportFiles", parameters: .object(["paths": .array([.string(photo)])]))
        let fetched = try await connection.call("io.photolibd.Library.FetchAssets", parameters: .object([
            "query": .object([:]), "includeResources": .bool(true),
        ]))
        let resource = try #require(fetched["assets"]?[0]?["resources"]?[0])
        let storedPath = try #require(resource["path"]?.stringValue)
        #expect(storedPath.hasPrefix(daemon.libraryPath + "/originals/2021/03/"))
        #expect(resource["type"]?.stringValue == "photo")
        #expect(resource["mimeType"]?.stringValue == "image/jpeg")
        #expect(FileManager.default.contentsEqual(atPath: storedPath, andPath: photo))
        #expect(FileManager.default.fileExists(atPath: photo))
        await connection.close()
    }

    @Test func badFilesAreReportedAndNothingIsLost() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let empty = files.file("empty.jpg")
        FileManager.default.createFile(atPath: empty, contents: Data())
        let text = files.file("notes.jpg")
        try "just some text".write(toFile: text, atomically: true, encoding: .utf8)
        let document = files.file("notes.txt")
        try "a document".write(toFile: document, atomically: true, encoding: .utf8)
        let good = try ImageFixtures.image(at: files.file("good.jpg"))
        let truncated = files.file("truncated.jpg")
        let goodBytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try goodBytes.prefix(20).write(to: URL(fileURLWithPath: truncated))
        let missing = files.file("missing.jpg")

        let connection = try await daemon.connect()
        let reply = try await connection.call("io.photolibd.Import.ImportFiles", parameters: .object([
            "paths": .array([empty, text, document, truncated, missing, good, good].map(JSONValue.string)),
        ]))
        let statuses = try #require(reply["files"]?.arrayValue).map { $0["status"]?.stringValue ?? "" }
        #expect(statuses == ["failed", "failed", "unsupported", "failed", "failed", "imported", "duplicate"])
        let reasons = try #require(reply["files"]?.arrayValue).compactMap { $0["error"]?.stringValue }
        #expect(reasons.allSatisfy { !$0.isEmpty })
        for path in [empty, text, document, truncated, good] {
            #expect(FileManager.default.fileExists(atPath: path))
        }
        let status = try await connection.call("io.photolibd.Import.Status", parameters: .object([:]))
        #expect(status["imported"]?.intValue == 1)
        #expect(status["failed"]?.intValue == 4)
        #expect(status["lastError"]?.stringValue?.contains("missing.jpg") == true)
        let fetched = try await connection.call("io.photolibd.Library.FetchAssets", parameters: .object(["query": .object([:])]))
        #expect(fetched["count"]?.intValue == 1)
        #expect(daemon.isRunning)
        await connection.close()
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
        let imported = try asNobody(["import", shared, secret, hidden])
        #expect(imported.status == 1)
        let rows = imported.output.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.map { $0.first } == ["imported", "failed", "failed"])
        #expect(imported.output.components(separatedBy: "the calling user cannot read this file").count == 3)

        let added = try asNobody(["sources", "add", files.file("private"), "--mode", "reference"])
        #expect(added.status != 0 && added.errors.contains("the calling user cannot read this folder"))
        let connection = try await daemon.connect()
        let fetched = try await connection.call("io.photolibd.Library.FetchAssets", parameters: .object(["query": .object([:])]))
        #expect(fetched["assets"]?.arrayValue?.map { $0["originalFilename"] } == ["shared.jpg"])
        #expect(try await connection.call("io.photolibd.Import.ListSources", parameters: [:])["sources"] == [])
        await connection.close()
        try await daemon.stop()
    }
}
