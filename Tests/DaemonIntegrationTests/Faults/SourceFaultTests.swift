import Foundation
import PhotoLibrary
import Synchronization
import Testing
import TestSupport
import Varlink

/// The disk under a watched folder fails: a file that gives I/O errors, the whole disk gone mid-import. The daemon
/// says so, keeps serving, loses no file, and imports what waited once the disk is back.
@Suite(.serialized, .enabled(if: FaultFileSystem.canMount, "mounting a FUSE file system needs root and /dev/fuse"))
struct SourceFaultTests {
    @Test func aDroppedFileThatGivesIOErrorsWaitsAndImportsOnceItCanBeRead() async throws {
        let folder = try TemporaryDirectory()
        let disk = try FaultFileSystem(at: folder.file("drop"))
        let library = try await WatchedLibrary.start(sources: [(disk.path, "move")])
        disk.failReads(ofPathsContaining: "bad")
        try MediaFixtures.jpegVariant(1).write(to: URL(fileURLWithPath: disk.path + "/good.jpg"))
        try MediaFixtures.jpegVariant(2).write(to: URL(fileURLWithPath: disk.path + "/bad.jpg"))
        try await library.waitUntil(timeout: 60, "the good file is imported and the bad one waits") {
            try await library.assets().count == 1 && library.daemon.log().contains("Input/output error")
        }
        #expect(library.daemon.log().components(separatedBy: "Imports wait").count == 2, "one log line for the fault")
        #expect(FileManager.default.fileExists(atPath: disk.path + "/bad.jpg"))
        #expect(try await library.status().failed == 0)

        disk.failReads(ofPathsContaining: nil)
        try await library.waitUntil(timeout: 90, "the bad file is imported once it reads") {
            try await library.assets().count == 2 && filesUnder(disk.path).isEmpty
        }
        #expect(library.daemon.log().contains("Imports go on"))
        await library.client.close()
        try await library.daemon.stop()
    }

    @Test func aWatchedFolderWhoseDiskGoesAwayMidImportLosesNothingAndCatchesUpWhenItIsBack() async throws {
        let folder = try TemporaryDirectory()
        let disk = try FaultFileSystem(at: folder.file("drop"))
        let library = try await WatchedLibrary.start(sources: [(disk.path, "move")])
        let count = 60
        // The read of one file waits, as on a disk that stopped answering, so that the import is under way when the
        // disk goes, however fast or slowly the machine runs, and in whatever order the files are found.
        disk.holdReads(ofPathsContaining: "photo-5.")
        for index in 0..<count {
            try (MediaFixtures.jpegVariant(index) + Data(count: 512 << 10)).write(to: URL(fileURLWithPath: disk.path + "/photo-\(index).jpg"))
        }
        let underWay = try await eventually(timeout: .seconds(60)) { try await library.assets().count >= 5 }
        #expect(underWay, "the import went on; log:\n\(library.daemon.log().suffix(8000))")
        disk.unplug()
        try await Task.sleep(for: .seconds(3))
        #expect(library.daemon.isRunning)
        let during = try await library.assets()
        #expect(during.count < count, "the disk went before the import was done")

        try disk.plugBack()
        try await library.waitUntil(timeout: 180, "every file is imported once the disk is back") {
            try await library.assets().count == count && filesUnder(disk.path).isEmpty
        }
        var seen: Set<Int> = []
        for asset in try await library.assets() {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: try #require(asset.resources?.first?.path)))
            let index = try #require(Int(asset.originalFilename.dropFirst("photo-".count).dropLast(".jpg".count)))
            #expect(bytes == MediaFixtures.jpegVariant(index) + Data(count: 512 << 10), "\(asset.originalFilename) is whole")
            seen.insert(index)
        }
        #expect(seen.count == count)
        await library.client.close()
        try await library.daemon.stop()
    }

    @Test func aSourceDiskThatStopsAnsweringHoldsUpOnlyTheImports() async throws {
        let folder = try TemporaryDirectory()
        let disk = try FaultFileSystem(at: folder.file("drop"))
        let library = try await WatchedLibrary.start(sources: [(disk.path, "move")])
        try MediaFixtures.jpegVariant(0).write(to: URL(fileURLWithPath: disk.path + "/first.jpg"))
        try await library.waitUntil(timeout: 60, "the first file is imported") { try await library.assets().count == 1 }
        let original = try await library.client.requestImageData(for: try await library.assets()[0].id)

        disk.holdReads(ofPathsContaining: "held")
        for index in 1...6 {
            try MediaFixtures.jpegVariant(index).write(to: URL(fileURLWithPath: disk.path + "/held-\(index).jpg"))
        }
        // The four import workers take a held file each, and every thread the imports read on waits on the disk; the
        // library's own files are still served.
        #expect(try await eventually(timeout: .seconds(30)) { try await library.status().processing == 4 })
        let socketPath = library.daemon.socketPath
        let served = Mutex<Int?>(nil)
        let reading = Task {
            let size = try await ByteTransportTests.onThread {
                try VarlinkRawConnection.connect(socketPath: socketPath).call(
                    "io.photolibd.Images.ReadFile", parameters: ReadFileParameters(path: original.path, offset: 0, length: 0),
                    returning: ReadFileReply.self).fileSize
            }
            served.withLock { $0 = size }
        }
        let wasServed = try await eventually(timeout: .seconds(10)) { served.withLock { $0 } != nil }
        #expect(wasServed, "a file of the library is served while the imports wait on the disk")

        disk.holdReads(ofPathsContaining: nil)
        try await reading.value
        try await library.waitUntil(timeout: 90, "the held files are imported once the disk answers") {
            try await library.assets().count == 7 && filesUnder(disk.path).isEmpty
        }
        await library.client.close()
        try await library.daemon.stop()
    }
}
