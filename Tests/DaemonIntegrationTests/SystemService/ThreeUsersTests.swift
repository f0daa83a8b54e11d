import Foundation
import Glibc
import PhotoLibrary
import Testing
import TestSupport

/// The system service and three local users made for the test, one of each grant: the one allowed sees the library
/// through the socket, the add-only one adds and sees nothing, the denied one gets nothing at all, and no file of
/// the library or the cache opens for any of them. The daemon runs as the system unit runs it: as root, handed its
/// listening socket by systemd-socket-activate (systemd is not PID 1 here), the socket open to all (SocketMode=0666).
@Suite(.serialized, .enabled(if: getuid() == 0, "making users and running clients as them takes root"))
struct ThreeUsersTests {
    static let interop = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Interop").path

    /// A local user made for the test, removed when released.
    final class LocalUser: Sendable {
        let name: String
        let uid: UInt32

        init(_ role: String) throws {
            name = "pl-\(role)-\(UUID().uuidString.prefix(6).lowercased())"
            try runTool("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", name])
            uid = try #require(UInt32(try runTool("/usr/bin/id", ["-u", name]).output.trimmingCharacters(in: .whitespacesAndNewlines)))
        }

        deinit { _ = try? runTool("/usr/sbin/userdel", [name], checked: false) }

        /// Runs `command` as this user, in its own group only.
        func run(_ command: [String], checked: Bool = true) throws -> ToolResult {
            try runTool("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] + command,
                        environment: ["PATH": "/usr/bin:/bin", "HOME": "/"], checked: checked)
        }

        func json(_ command: [String]) throws -> [String: Any] {
            let output = try run(command).output
            return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        }
    }

    @Test func theAllowedSeesTheAddOnlyAddsAndTheDeniedGetsNothingNotEvenFromTheDisk() async throws {
        let allowed = try LocalUser("allowed"), addOnly = try LocalUser("addonly"), denied = try LocalUser("denied")
        let daemon = try DaemonProcess(extraConfig: """
            [access]
            users = [\(allowed.uid)]
            add_only_users = [\(addOnly.uid)]
            """)
        let runtime = (daemon.socketPath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        chmod(daemon.directory, 0o755)
        daemon.launcher = DaemonProcess.socketActivationLauncher(socketPath: daemon.socketPath)
        try await daemon.start()
        chmod(daemon.socketPath, 0o666)

        // The owner's library: a photo, its thumbnail in the cache, an edit.
        let photos = try TemporaryDirectory()
        chmod(photos.path, 0o755)
        let photo = try ImageFixtures.image(at: photos.file("photo.jpg"), width: 300, height: 200)
        let toSend = try ImageFixtures.image(at: photos.file("to-send.jpg"), width: 60, height: 40)
        let toImport = try ImageFixtures.image(at: photos.file("to-import.jpg"), width: 50, height: 40)
        for path in [toSend, toImport] { chmod(path, 0o644) }
        let owner = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let assetId = try #require(try await owner.importFiles([photo]).files.first?.assetId)
        _ = try await owner.requestImage(RequestImageParameters(assetId: assetId, targetSize: ImageSize(width: 128, height: 128)))
        var edit = PhotoLibrary.ChangeBuilder()
        edit.editAsset(assetId, basic: BasicAdjustment(rotate: 90))
        _ = try await owner.performChanges(edit)

        func summary(_ user: LocalUser) throws -> [String: Any] {
            try user.json(["/usr/bin/python3", Self.interop + "/other_user_client.py", daemon.socketPath, toSend, assetId])
        }
        func probe(_ user: LocalUser) throws -> [String: Any] {
            try user.json(["/usr/bin/python3", Self.interop + "/wrong_user_probe.py", daemon.socketPath,
                           daemon.libraryPath, daemon.directory + "/cache"])
        }

        let seen = try summary(allowed)
        #expect(seen["status.readWrite"] as? String == "authorized")
        #expect(seen["count"] as? Int == 1)
        #expect((seen["data"] as? String)?.count == 64, "the original's bytes through the socket")

        let added = try summary(addOnly)
        #expect(added["status.readWrite"] as? String == "denied" && added["status.addOnly"] as? String == "authorized")
        #expect(added["count"] as? Int == 0)
        #expect((added["data"] as? String)?.hasSuffix("PermissionDenied") == true)
        #expect(added["upload"] as? String == "created")
        let imported = try addOnly.run([DaemonProcess.productsDirectory + "/photolib", "import", "--socket", daemon.socketPath,
                                        toImport], checked: false)
        #expect(imported.status == 0, "\(imported.errors)")

        let refused = try summary(denied)
        #expect(refused["status.readWrite"] as? String == "denied" && refused["status.addOnly"] as? String == "denied")
        #expect(refused["count"] as? Int == 0)
        #expect((refused["data"] as? String)?.hasSuffix("PermissionDenied") == true)
        #expect((refused["upload"] as? String)?.hasSuffix("PermissionDenied") == true)

        for user in [allowed, addOnly, denied] {
            let probed = try probe(user)
            #expect((probed["opened"] as? [String]) == [], "\(user.name) opened \(probed["opened"] ?? "")")
            if user !== allowed {
                let observed = try #require(probed["observed"] as? [String: Any])
                #expect(observed["count"] as? Int == 0 && (observed["ids"] as? [String])?.isEmpty != false,
                        "\(user.name) observed \(observed)")
            }
        }
        // On disk: nothing under the library or the cache lets group or others in.
        for root in [daemon.libraryPath, daemon.directory + "/cache"] {
            for relative in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] {
                var status = stat()
                guard lstat(root + "/" + relative, &status) == 0, status.st_mode & S_IFMT != S_IFLNK else { continue }
                #expect(status.st_mode & 0o077 == 0, "\(relative) is \(String(status.st_mode & 0o777, radix: 8))")
            }
        }
        #expect(try await owner.fetchAssets().count == 3, "the photo, the uploaded one and the add-only user's import")
        await owner.close()
        try await daemon.stop()
    }
}
