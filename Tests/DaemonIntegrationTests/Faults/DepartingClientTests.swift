import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Varlink

/// A client that goes away in the middle of its import (Ctrl-C in `photolib import`) leaves nothing stuck.
@Suite(.serialized)
struct DepartingClientTests {
    @Test func aClientThatLeavesMidImportCancelsOnlyItsOwnAndTheCountersReturnToZero() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        // Files of 2 MB each, so that the import is still under way when the client leaves.
        let paths = try (0..<100).map { index in
            let path = photos.file("IMG_\(index).jpg")
            try (MediaFixtures.jpegVariant(index) + Data(count: 2 << 20)).write(to: URL(fileURLWithPath: path))
            return path
        }
        let connection = try await daemon.connect()
        let replies = connection.stream(ImportMethod.importFiles.qualifiedName,
                                        parameters: ImportFilesParameters(paths: paths, mode: .copy),
                                        returning: ImportFilesReply.self)
        // Gone as soon as the first file is done (Ctrl-C early in `photolib import`). A later point would be a race
        // on a loaded machine: the replies the client has not read yet can already tell of every file.
        for try await reply in replies where reply.processed >= 1 { break }
        await connection.close()

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
        #expect((1..<100).contains(assets.count), "the rest of the import was cancelled")
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
