import Foundation
import Glibc
import PhotoLibrary
import Testing
import TestSupport

/// Nothing the daemon writes grants other users anything (CONTRACT §11), whatever umask it was started with.
@Suite(.serialized)
struct PrivacyOnDiskTests {
    /// Every file and folder under `root` (itself included) whose mode lets group or others in, but sockets.
    private func entriesOpenToOthers(under root: String) -> [String] {
        var open: [String] = []
        var status = stat()
        if lstat(root, &status) == 0, status.st_mode & 0o077 != 0 { open.append("\(root) \(String(status.st_mode & 0o777, radix: 8))") }
        for relative in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] {
            let path = root + "/" + relative
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFSOCK, status.st_mode & S_IFMT != S_IFLNK else { continue }
            if status.st_mode & 0o077 != 0 { open.append("\(path) \(String(status.st_mode & 0o777, radix: 8))") }
        }
        return open
    }

    @Test func aDaemonStartedWithAnOpenUmaskCreatesNothingOthersMayRead() async throws {
        let drop = try TemporaryDirectory()
        let photos = try TemporaryDirectory()
        let daemon = try DaemonProcess(extraConfig: "[[source]]\npath = \"\(drop.path)\"\nmode = \"move\"\n",
                                       launcher: ["/bin/sh", "-c", "umask 000; exec \"$@\"", "sh"])
        try await daemon.start()
        let client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)

        try MarkedPhotos.write(at: photos.path + "/dropped.jpg", width: 640, height: 480, orientation: 6)
        #expect(rename(photos.path + "/dropped.jpg", drop.path + "/dropped.jpg") == 0)
        try MarkedPhotos.write(at: photos.path + "/copied.jpg", width: 480, height: 640, orientation: 1)
        let imported = try await client.importFiles([photos.path + "/copied.jpg"])
        let copied = try #require(imported.files.first?.assetId)
        #expect(try await eventually { try await client.fetchAssets().count == 2 })
        _ = try await client.requestImage(RequestImageParameters(assetId: copied, targetSize: ImageSize(width: 256, height: 256)))
        var edit = PhotoLibrary.ChangeBuilder()
        edit.editAsset(copied, basic: BasicAdjustment(rotate: 90))
        _ = try await client.performChanges(edit)
        _ = try await client.requestImage(RequestImageParameters(assetId: copied, targetSize: ImageSize(width: 128, height: 128)))
        await client.close()

        for root in [daemon.libraryPath, daemon.directory + "/cache"] {
            #expect(entriesOpenToOthers(under: root) == [], "under \(root)")
        }
        // The socket is for every caller (the access policy decides what each may do), so its folder may be
        // searched, not listed; nothing else in it is open.
        let runtime = (daemon.socketPath as NSString).deletingLastPathComponent
        #expect(entriesOpenToOthers(under: runtime) == ["\(runtime) 711"])
        var socket = stat()
        #expect(lstat(daemon.socketPath, &socket) == 0 && socket.st_mode & 0o777 == 0o666)
        #expect(try await daemon.stop() == 0)
    }

    @Test func aLibraryAnEarlierVersionLeftOpenIsClosedAtItsRootOnStart() async throws {
        let daemon = try DaemonProcess()
        try FileManager.default.createDirectory(atPath: daemon.libraryPath, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try FileManager.default.createDirectory(atPath: daemon.directory + "/cache", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        chmod(daemon.libraryPath, 0o755)
        chmod(daemon.directory + "/cache", 0o755)
        try await daemon.start()
        for root in [daemon.libraryPath, daemon.directory + "/cache"] {
            var status = stat()
            #expect(stat(root, &status) == 0 && status.st_mode & 0o777 == 0o700, "\(root)")
        }
        #expect(try await daemon.stop() == 0)
    }
}
