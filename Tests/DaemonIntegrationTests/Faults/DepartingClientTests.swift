import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Varlink

/// A client that goes away in the middle of its import (Ctrl-C in `photolib import`) leaves nothing stuck.
@Suite(.serialized, .enabled(if: FaultFileSystem.canMount, "mounting a FUSE file system needs root and /dev/fuse"))
struct DepartingClientTests {
    @Test func aClientThatLeavesMidImportCancelsOnlyItsOwnAndTheCountersReturnToZero() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let folder = try TemporaryDirectory()
        let photos = try FaultFileSystem(at: folder.file("photos"))
        let paths = try (0..<100).map { index in
            let path = photos.path + "/IMG_\(index).jpg"
            try MediaFixtures.jpegVariant(index).write(to: URL(fileURLWithPath: path))
            return path
        }
        // The second file's reads wait until the client has left, so that the import is under way when it leaves,
        // however fast or slowly the machine runs.
        photos.holdReads(ofPathsContaining: "IMG_1.")
        let connection = try await daemon.connect()
        let replies = connection.stream(ImportMethod.importFiles.qualifiedName,
                                        parameters: ImportFilesParameters(paths: paths, mode: .copy),
                                        returning: ImportFilesReply.self)
        for try await reply in replies where reply.processed >= 1 { break }
        await connection.close()
        try await Task.sleep(for: .seconds(5))  // for the daemon to see the client gone, on a loaded machine too
        photos.holdReads(ofPathsContaining: nil)

        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let settled = try await eventually(timeout: .seconds(60)) { () async throws -> ImportStatus? in
            let status = try await library.importStatus()
            return status.queued == 0 && status.processing == 0 ? status : nil
        }
        let stuck = try await library.importStatus()
        let status = try #require(settled, "the counters stay at \(stuck)")
        #expect(status.failed == 0)
        #expect(status.lastError == nil)
        let assets = try await library.fetchAssets(includeResources: true).assets
        #expect(assets.count == 2, "the file under way is imported, the rest of the import was cancelled")
        #expect(status.imported == assets.count)
        for asset in assets {
            let path = try #require(asset.resources?.first?.path)
            #expect(FileManager.default.fileExists(atPath: path), "\(asset.originalFilename) lacks its copy")
        }
        try await eventually { (try? FileManager.default.contentsOfDirectory(atPath: daemon.libraryPath + "/incoming"))?.isEmpty == true }
        #expect(try FileManager.default.contentsOfDirectory(atPath: daemon.libraryPath + "/incoming").isEmpty)

        // The rest imports as if nothing had happened.
        let rest = try await library.importFiles(paths)
        #expect(rest.files.count(where: { $0.status == .imported }) == 100 - assets.count)
        #expect(try await library.importStatus().failed == 0)
        await library.close()
        try await daemon.stop()
    }
}
