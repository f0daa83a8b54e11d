import Foundation
import Glibc
import LibraryStore
import PhotoModel
import TestSupport
import Testing
import Varlink

/// `kill -9` of the daemon while files are dropped, or a crash of the machine before an import's copy reached the
/// disk: after a restart every file is in the library exactly once, whole.
@Suite(.serialized)
struct CrashRecoveryTests {
    @Test func killingTheDaemonDuringA1000FileDropLosesAndDuplicatesNothing() async throws {
        let drop = try TemporaryDirectory(), staging = try TemporaryDirectory()
        let daemon = try DaemonProcess(extraConfig: "[[source]]\npath = \"\(drop.path)\"\nmode = \"move\"\n")
        try await daemon.start()
        let fileCount = 1_000
        // Half the files are written in place, half written aside and renamed in, as upload tools do.
        let writer = Task.detached {
            for index in 0..<fileCount {
                let bytes = MediaFixtures.jpegVariant(index)
                if index.isMultiple(of: 2) {
                    try bytes.write(to: URL(fileURLWithPath: drop.file("photo-\(index).jpg")))
                } else {
                    try bytes.write(to: URL(fileURLWithPath: staging.file("photo-\(index).jpg")))
                    try FileManager.default.moveItem(
                        atPath: staging.file("photo-\(index).jpg"), toPath: drop.file("photo-\(index).jpg"))
                }
                if index.isMultiple(of: 25) { try await Task.sleep(for: .milliseconds(20)) }
            }
        }
        for _ in 0..<6 {
            try await Task.sleep(for: .milliseconds(Int.random(in: 150...1_200)))
            try await daemon.kill9()
            try await daemon.start()
        }
        try await writer.value

        let library = try await WatchedLibrary(daemon: daemon)
        try await library.waitUntil(timeout: 300, "the drop folder is emptied") {
            guard filesUnder(drop.path).isEmpty else { return false }
            return try await library.assets().count >= fileCount
        }
        let assets = try await library.assets()
        #expect(assets.count == fileCount)
        var seen: [Int: Int] = [:]
        for asset in assets {
            let path = try #require(asset.resources?.first?.path)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let marker = String(decoding: bytes.suffix(30), as: UTF8.self)
            let index = try #require(marker.components(separatedBy: "photolibd-variant-").last.flatMap { Int($0) })
            #expect(bytes == MediaFixtures.jpegVariant(index))
            seen[index, default: 0] += 1
        }
        #expect(seen.count == fileCount && seen.values.allSatisfy { $0 == 1 })
        #expect(filesUnder(daemon.libraryPath + "/originals").count == fileCount)
        #expect(filesUnder(daemon.libraryPath + "/incoming").isEmpty)
        #expect(try await library.status().failed == 0)
        await library.client.close()
        try await daemon.stop()
    }

    /// A crash of the machine after an import committed but before its copy was synced: the commit survived, the
    /// copy's content did not, and the source stayed in the drop folder (it goes only after the sync). The next
    /// start writes the copy again from the source, and the source then leaves the drop folder.
    @Test func aCopyThatDidNotReachTheDiskIsWrittenAgainFromItsSourceAtTheNextStart() async throws {
        let drop = try TemporaryDirectory()
        let daemon = try DaemonProcess(extraConfig: "[[source]]\npath = \"\(drop.path)\"\nmode = \"move\"\n")
        let bytes = MediaFixtures.jpegVariant(7), source = drop.file("beach.jpg")
        try FileManager.default.createDirectory(atPath: drop.path, withIntermediateDirectories: true)
        try bytes.write(to: URL(fileURLWithPath: source))
        let storedPath = daemon.libraryPath + "/originals/2021/06/beach.jpg"
        try FileManager.default.createDirectory(
            atPath: daemon.libraryPath + "/originals/2021/06", withIntermediateDirectories: true)
        try Data(count: bytes.count / 2).write(to: URL(fileURLWithPath: storedPath))
        let hash = try runTool("/usr/bin/sha256sum", [source]).output.prefix(64)
        let draft = AssetDraft(
            mediaType: .image, pixelWidth: 64, pixelHeight: 48, orientation: 1,
            creationDate: Timestamp(rfc3339: "2021-06-15T12:00:00+02:00"), creationDateSource: .exif, location: nil,
            contentHash: String(hash),
            resources: [
                DraftResource(
                    type: .photo, originalFilename: "beach.jpg", mimeType: "image/jpeg",
                    fileSize: Int64(bytes.count), path: storedPath, isOwnedByLibrary: true)
            ])
        let file = SourceFile(
            contentHash: String(hash), sourceRoot: drop.path, sourcePath: source, groupKey: drop.path + "/beach",
            role: .still, identity: FileIdentity(device: 0, inode: 0, size: Int64(bytes.count), modificationTime: 0))
        do {
            let database = try LibraryDatabase(path: daemon.libraryPath + "/library.sqlite")
            let outcome = try await database.ingest(
                IngestRequest(draft: draft, file: file, isReference: false, defersSync: true),
                fileExists: { _ in true })
            #expect(outcome.usesFile)
        }

        try await daemon.start()
        let library = try await WatchedLibrary(daemon: daemon)
        try await library.waitUntil("the source leaves the drop folder") { filesUnder(drop.path).isEmpty }
        #expect(try Data(contentsOf: URL(fileURLWithPath: storedPath)) == bytes)
        let assets = try await library.assets()
        #expect(assets.count == 1 && assets.first?.resources?.first?.path == storedPath)
        #expect(filesUnder(daemon.libraryPath + "/originals") == [storedPath])
        #expect(daemon.log().contains("wrote again from its source"))
        await library.client.close()
        try await daemon.stop()
        #expect(try await LibraryDatabase(path: daemon.libraryPath + "/library.sqlite").unsyncedCopies.all().isEmpty)
    }
}
