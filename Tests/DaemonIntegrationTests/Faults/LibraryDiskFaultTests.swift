import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// The library's disk fills up or turns read-only under a drop folder: the daemon says so once, keeps serving,
/// loses no file, and imports what waited by itself once the disk takes writes again.
@Suite(.serialized)
struct LibraryDiskFaultTests {
    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a small tmpfs needs root"))
    func dropsWaitWhileTheLibraryDiskIsFullAndImportOnceItHasRoom() async throws {
        let (daemon, drop) = try Self.daemonWithDropFolder()
        let disk = try SmallFileSystem(bytes: 16 << 20, at: daemon.libraryPath)
        try await checkDropsWait(
            daemon, drop, fault: "No space left on device", starting: { disk.fill() }, ending: { disk.empty() })
    }

    @Test(.enabled(if: FaultFileSystem.canMount, "mounting a FUSE file system needs root and /dev/fuse"))
    func dropsWaitWhileTheLibraryIsReadOnlyAndImportOnceItIsWritable() async throws {
        let (daemon, drop) = try Self.daemonWithDropFolder()
        let disk = try FaultFileSystem(at: daemon.libraryPath)
        try await checkDropsWait(
            daemon, drop, fault: "Read-only file system",
            starting: { disk.setReadOnly(true) }, ending: { disk.setReadOnly(false) })
    }

    /// A drop from a month the library has no folder for yet: Foundation reports the folder it could not make as a
    /// `CocoaError` wrapping `EROFS`, a passing fault like any other. It waits, is imported within seconds of the
    /// library turning writable, the error is cleared, and SQLite, refused by the same disk meanwhile, writes again.
    @Test(.enabled(if: FaultFileSystem.canMount, "mounting a FUSE file system needs root and /dev/fuse"))
    func aDropNeedingANewFolderWaitsOutAReadOnlyLibraryAndIsImportedSoonAfter() async throws {
        let (daemon, drop) = try Self.daemonWithDropFolder()
        let disk = try FaultFileSystem(at: daemon.libraryPath)
        try await daemon.start()
        let library = try await WatchedLibrary(daemon: daemon)
        let outside = try TemporaryDirectory()
        let photo = try ImageFixtures.image(
            at: outside.file("march-2008.jpg"), width: 64, height: 48,
            exif: ["-DateTimeOriginal=2008:03:14 10:00:00"])

        disk.setReadOnly(true)
        try FileManager.default.moveItem(atPath: photo, toPath: drop.file("march-2008.jpg"))
        #expect(try await eventually(timeout: .seconds(30)) { daemon.log().contains("Imports wait") })
        let waiting = try await library.status()
        #expect(waiting.lastError?.contains("originals/2008/03: Read-only file system") == true, "\(waiting)")
        #expect(waiting.failed == 0)
        var album = PhotoLibrary.ChangeBuilder()
        _ = album.createAlbum(title: "Written once writable")
        await #expect(throws: PhotoLibraryError.self) { try await library.client.performChanges(album) }

        // Long enough for the pause between tries to grow past what the 10 s below allows.
        try await Task.sleep(for: .seconds(16))
        disk.setReadOnly(false)
        try await library.waitUntil(timeout: 10, "the drop is imported within 10 s of the library turning writable") {
            try await library.assets().count == 1
        }
        let imported = try #require(try await library.assets().first)
        #expect(imported.creationDate?.rfc3339.hasPrefix("2008-03-14") == true)
        #expect(filesUnder(drop.path).isEmpty)
        let after = try await library.status()
        #expect(after.lastError == nil, "the error is cleared once the import gets through")
        #expect(after.failed == 0)
        #expect(daemon.log().contains("Imports go on"))
        _ = try await library.client.performChanges(album)
        #expect(
            try await library.client.fetchAllCollections(matching: CollectionQuery(kind: .album)).collections.map(
                \.title)
                == ["Written once writable"])
        await library.client.close()
        try await daemon.stop()
    }

    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a small tmpfs needs root"))
    func aChangeBlockOnAFullDiskFailsWholeAndTheSameBlockCommitsOnceThereIsRoom() async throws {
        let (daemon, drop) = try Self.daemonWithDropFolder()
        let disk = try SmallFileSystem(bytes: 16 << 20, at: daemon.libraryPath)
        try await daemon.start()
        let library = try await WatchedLibrary(daemon: daemon)
        try MediaFixtures.writeVariants(0..<3, in: drop.path)
        try await library.waitUntil(timeout: 60, "the drops are imported") { try await library.assets().count == 3 }
        let ids = try await library.assets().map(\.id)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setFavorite(true, for: ids)
        changes.addAssets(ids, to: changes.createAlbum(title: "Full"))
        disk.fill()
        // Big enough that SQLite's log has to grow on disk for it.
        var many = changes
        for index in 0..<400 { _ = many.createAlbum(title: String(repeating: "x", count: 200) + "\(index)") }
        await #expect(throws: PhotoLibraryError.self) { try await library.client.performChanges(many) }
        #expect(try await library.assets().allSatisfy { !$0.isFavorite }, "nothing of the failed block is kept")
        #expect(
            try await library.client.fetchAllCollections(matching: CollectionQuery(kind: .album)).collections.isEmpty)
        #expect(daemon.isRunning)
        disk.empty()
        _ = try await library.client.performChanges(changes)
        #expect(try await library.assets().allSatisfy(\.isFavorite))
        #expect(
            try await library.client.fetchAllCollections(matching: CollectionQuery(kind: .album)).collections.map(
                \.title) == ["Full"])
        await library.client.close()
        try await daemon.stop()
    }

    private static func daemonWithDropFolder() throws -> (DaemonProcess, TemporaryDirectory) {
        let drop = try TemporaryDirectory()
        return (try DaemonProcess(extraConfig: "[[source]]\npath = \"\(drop.path)\"\nmode = \"move\"\n"), drop)
    }

    private func checkDropsWait(
        _ daemon: DaemonProcess, _ drop: TemporaryDirectory, fault: String,
        starting startFault: () -> Void, ending endFault: () -> Void
    ) async throws {
        try await daemon.start()
        let library = try await WatchedLibrary(daemon: daemon)
        let before = try MediaFixtures.writeVariants(100..<102, in: drop.path, prefix: "before")
        try await library.waitUntil(timeout: 60, "the first drops are imported") { filesUnder(drop.path).isEmpty }

        startFault()
        let dropped = try MediaFixtures.writeVariants(0..<3, in: drop.path)
        #expect(try await eventually(timeout: .seconds(30)) { daemon.log().contains("Imports wait") })
        try await Task.sleep(for: .seconds(3))
        #expect(daemon.log().components(separatedBy: "Imports wait").count == 2, "one log line for the fault")
        #expect(daemon.log().contains(fault))
        #expect(dropped.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the drops stay where they are")
        let waiting = try await library.status()
        #expect(waiting.failed == 0)
        #expect(waiting.lastError?.contains(fault) == true)
        #expect(try await library.assets().count == before.count, "the library still answers")

        endFault()
        try await library.waitUntil(timeout: 90, "the waiting drops are imported") {
            guard filesUnder(drop.path).isEmpty else { return false }
            return try await library.assets().count == before.count + dropped.count
        }
        #expect(daemon.log().contains("Imports go on"))
        for asset in try await library.assets() {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try #require(asset.resources?.first?.path)))
            let index = try #require(
                String(decoding: bytes.suffix(3), as: UTF8.self).split(separator: "-").last.flatMap { Int($0) })
            #expect(bytes == MediaFixtures.jpegVariant(index), "\(asset.originalFilename) is whole")
        }
        #expect(try await library.status().failed == 0)
        await library.client.close()
        try await daemon.stop()
    }
}
