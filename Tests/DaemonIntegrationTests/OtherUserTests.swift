import Foundation
import Glibc
import PhotoLibrary
import Testing
import TestSupport

/// What another local user of the daemon gets, by its grant in the access policy (CONTRACT §4, §11, §12): run as
/// `nobody` with `setpriv`, which needs root (CI runs the tests as root).
@Suite(.serialized, .enabled(if: getuid() == 0, "running a client as another user takes root"))
struct OtherUserTests {
    static let other: UInt32 = 65534
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Interop/other_user_client.py").path

    /// Runs `command` as `nobody`, in no group but its own.
    @discardableResult
    static func runAsOther(_ command: [String], checked: Bool = true) throws -> ToolResult {
        try runTool("/usr/bin/setpriv", ["--reuid=\(other)", "--regid=\(other)", "--clear-groups"] + command,
                    environment: ["PATH": "/usr/bin:/bin"], checked: checked)
    }

    /// A daemon whose policy lists `nobody` under `key`, one photo in its library, and a photo `nobody` can read.
    static func daemon(granting key: String?) async throws -> (PopulatedDaemon, photo: String) {
        let access = key.map { "[access]\n\($0) = [\(other)]\n" } ?? ""
        let daemon = try DaemonProcess(extraConfig: access)
        try await daemon.start()
        let photos = try TemporaryDirectory()
        chmod(photos.path, 0o755)
        let path = try ImageFixtures.image(at: photos.file("photo0.jpg"), width: 200, height: 100)
        let client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await client.importFiles([path]).files.compactMap(\.assetId)
        let toSend = try ImageFixtures.image(at: photos.file("to-send.jpg"), width: 60, height: 40)
        chmod(toSend, 0o644)
        return (PopulatedDaemon(daemon: daemon, client: client, connection: try await daemon.connect(), assetIds: ids,
                                photos: photos), toSend)
    }

    static func summary(_ library: PopulatedDaemon, sending photo: String) throws -> [String: Any] {
        let output = try runAsOther(["/usr/bin/python3", script, library.daemon.socketPath, photo, library.assetIds[0]]).output
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    @Test func aUserWhoCannotOpenTheLibrarysFilesGetsTheirBytesThroughTheSocket() async throws {
        let (library, photo) = try await Self.daemon(granting: "users")
        let summary = try Self.summary(library, sending: photo)
        #expect(summary["status.readWrite"] as? String == "authorized")
        #expect(summary["count"] as? Int == 1)
        #expect(summary["canOpen"] as? Bool == false, "the library's files are the daemon user's alone")
        let original = try await library.client.requestImageData(for: library.assetIds[0])
        let expected = try runTool("/usr/bin/sha256sum", [original.path]).output.prefix(64)
        #expect(summary["data"] as? String == String(expected))
        #expect(summary["upload"] as? String == "created")

        // The Swift client, as that user, exports the original through the socket.
        let output = try TemporaryDirectory()
        chmod(output.path, 0o777)
        try Self.runAsOther([DaemonProcess.productsDirectory + "/photolib", "export", "--socket", library.daemon.socketPath,
                             library.assetIds[0], "-o", output.path])
        #expect(FileManager.default.contents(atPath: output.file("photo0.jpg"))
                == FileManager.default.contents(atPath: original.path))
    }

    @Test func anAddOnlyUserAddsAndSeesNothing() async throws {
        let (library, photo) = try await Self.daemon(granting: "add_only_users")
        let summary = try Self.summary(library, sending: photo)
        #expect(summary["status.readWrite"] as? String == "denied")
        #expect(summary["status.addOnly"] as? String == "authorized")
        #expect(summary["count"] as? Int == 0)
        #expect((summary["data"] as? String)?.hasSuffix("PermissionDenied") == true)
        #expect(summary["upload"] as? String == "created")
        let created = try #require(summary["createdId"] as? String)
        #expect(try await library.fetchIds(AssetQuery(ids: [created])) == [created])
        // ImportFiles of a file the user can read is adding too; filing it into an album is not.
        let imported = try Self.runAsOther([DaemonProcess.productsDirectory + "/photolib", "import", "--socket",
                                            library.daemon.socketPath, library.photos.file("to-send.jpg")],
                                           checked: false)
        #expect(imported.status == 0, "\(imported.errors)")
    }

    @Test func aDeniedUserGetsNothingAndSendsNothing() async throws {
        let (library, photo) = try await Self.daemon(granting: nil)
        let summary = try Self.summary(library, sending: photo)
        #expect(summary["status.readWrite"] as? String == "denied" && summary["status.addOnly"] as? String == "denied")
        #expect(summary["count"] as? Int == 0)
        #expect((summary["data"] as? String)?.hasSuffix("PermissionDenied") == true)
        #expect((summary["upload"] as? String)?.hasSuffix("PermissionDenied") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.daemon.libraryPath + "/uploads") == [])
        #expect(try await library.client.fetchAssets().count == 1)
    }
}
