import Foundation
import Glibc
import Testing
import PhotoLibrary
import TestSupport

/// Drop folders and watched sources, with the real daemon, inotify, libvips and ffprobe.
@Suite(.serialized)
struct WatchedFolderTests {
    @Test func filesDroppedWithCpMvAndSlowWritesBecomeOneAssetEachWithAnInsertion() async throws {
        let drop = try TemporaryDirectory(), staging = try TemporaryDirectory()
        let library = try await WatchedLibrary.start(sources: [(drop.path, "move")])
        var (observer, observerClient) = try await InsertionCollector.start(library.daemon)

        let copied = try MediaFixtures.writeVariants(0..<150, in: staging.path, prefix: "copied")
        try runTool("/bin/cp", copied + [drop.path])
        try FileManager.default.createDirectory(atPath: staging.file("moving"), withIntermediateDirectories: true)
        let moved = try MediaFixtures.writeVariants(150..<300, in: staging.file("moving"), prefix: "moved")
        try FileManager.default.createDirectory(atPath: drop.file("nested/deeper"), withIntermediateDirectories: true)
        try runTool("/bin/mv", moved + [drop.file("nested/deeper")])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 300..<320 {
                group.addTask {
                    // One open file written in four chunks with pauses, then closed.
                    let bytes = [UInt8](MediaFixtures.jpegVariant(index))
                    let descriptor = open(drop.file("slow-\(index).jpg"), O_CREAT | O_WRONLY | O_TRUNC, 0o644)
                    defer { close(descriptor) }
                    let chunkSize = bytes.count / 4 + 1
                    for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                        let chunk = Array(bytes[start..<min(bytes.count, start + chunkSize)])
                        #expect(chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == chunk.count)
                        try await Task.sleep(for: .milliseconds(30))
                    }
                }
            }
            try await group.waitForAll()
        }

        try await observer.readInsertions(until: 320)
        #expect(Set(observer.inserted).count == 320)
        try await library.waitUntil("the drop folder is empty") { filesUnder(drop.path).isEmpty }
        let assets = try await library.assets()
        #expect(assets.count == 320)
        #expect(Set(assets.map(\.id)) == Set(observer.inserted))
        #expect(assets.allSatisfy { $0.creationDate?.rfc3339 == "2021-06-15T12:00:00+02:00" })
        #expect(assets.allSatisfy { $0.pixelWidth == 64 && $0.pixelHeight == 48 })
        let storedPaths = assets.compactMap { $0.resources?.first?.path }
        #expect(storedPaths.allSatisfy { $0.hasPrefix(library.daemon.libraryPath + "/originals/2021/06/") })
        #expect(Set(filesUnder(library.daemon.libraryPath + "/originals")) == Set(storedPaths))
        let originalNames = Set(assets.map(\.originalFilename))
        #expect(originalNames.contains("copied-0.jpg") && originalNames.contains("moved-299.jpg") && originalNames.contains("slow-319.jpg"))
        await observerClient.close()
    }

    @Test func temporaryAndHiddenNamesWaitUntilRenamed() async throws {
        let drop = try TemporaryDirectory()
        let library = try await WatchedLibrary.start(sources: [(drop.path, "copy")])
        for name in ["download.jpg.part", "browser.jpg.crdownload", ".hidden.jpg", "backup.jpg~"] {
            try MediaFixtures.jpegVariant(name.count).write(to: URL(fileURLWithPath: drop.file(name)))
        }
        try MediaFixtures.jpegVariant(1000).write(to: URL(fileURLWithPath: drop.file("sentinel.jpg")))
        try await library.waitUntil("the sentinel is imported") { try await library.assets().count == 1 }
        #expect(try await library.assets().map { $0.originalFilename } == ["sentinel.jpg"])

        try FileManager.default.moveItem(atPath: drop.file("download.jpg.part"), toPath: drop.file("download.jpg"))
        try await library.waitUntil("the renamed download is imported") { try await library.assets().count == 2 }
        #expect(Set(try await library.assets().map(\.originalFilename)) == ["sentinel.jpg", "download.jpg"])
    }

    @Test func badFilesAreReportedStayInTheDropFolderAndNeverStallTheDaemon() async throws {
        let drop = try TemporaryDirectory(), outside = try TemporaryDirectory()
        let library = try await WatchedLibrary.start(sources: [(drop.path, "move")])
        _ = FileManager.default.createFile(atPath: drop.file("empty.jpg"), contents: Data())
        try MediaFixtures.datedJPEG.prefix(30).write(to: URL(fileURLWithPath: drop.file("truncated.jpg")))
        try Data("just some text".utf8).write(to: URL(fileURLWithPath: drop.file("notes.jpg")))
        try Self.writePNGHeader(width: 100_000, height: 100_000, to: drop.file("bomb.png"))
        try Data("not a movie".utf8).write(to: URL(fileURLWithPath: drop.file("fake.mov")))
        try MediaFixtures.jpegVariant(1).write(to: URL(fileURLWithPath: outside.file("secret.jpg")))
        try FileManager.default.createSymbolicLink(atPath: drop.file("link.jpg"), withDestinationPath: outside.file("secret.jpg"))
        try FileManager.default.createSymbolicLink(atPath: drop.file("linked-folder"), withDestinationPath: outside.path)
        #expect(mkfifo(drop.file("pipe.jpg"), 0o644) == 0)
        let hasDevice = getuid() == 0 && mknod(drop.file("device.jpg"), S_IFCHR | 0o644, 0x103) == 0  // 1:3, /dev/null
        let invalidName = Self.createFile(named: Array("bad-".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8), in: drop.path,
                                          contents: MediaFixtures.jpegVariant(2))
        let newlineName = drop.file("line\nbreak.jpg")
        try MediaFixtures.jpegVariant(3).write(to: URL(fileURLWithPath: newlineName))
        let longName = drop.file(String(repeating: "l", count: 251) + ".jpg")
        try MediaFixtures.jpegVariant(4).write(to: URL(fileURLWithPath: longName))
        // A file deleted right after it was written: it may or may not be imported, but nothing breaks.
        try MediaFixtures.jpegVariant(5).write(to: URL(fileURLWithPath: drop.file("fleeting.jpg")))
        try? FileManager.default.removeItem(atPath: drop.file("fleeting.jpg"))

        let failing = ["empty.jpg", "truncated.jpg", "notes.jpg", "bomb.png", "fake.mov"].map(drop.file)
        try await library.waitUntil("the good files are imported and the bad ones reported") {
            let status = try await library.status()
            let reported = Set(status.recentFailures.map(\.path))
            return reported.isSuperset(of: failing) && reported.contains(invalidName)
                && !FileManager.default.fileExists(atPath: longName) && !FileManager.default.fileExists(atPath: newlineName)
        }
        let status = try await library.status()
        for failure in status.recentFailures {
            #expect(!failure.reason.isEmpty)
        }
        #expect(status.recentFailures.first { $0.path == drop.file("bomb.png") }?.reason.contains("above the limit") == true)
        #expect(try runTool("/bin/ls", ["-b", drop.path]).output.contains("bad-\\377\\376.jpg"))
        for path in failing + [drop.file("link.jpg"), drop.file("pipe.jpg")] {
            #expect(FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil)
        }
        if hasDevice { #expect(FileManager.default.fileExists(atPath: drop.file("device.jpg"))) }
        #expect(FileManager.default.fileExists(atPath: outside.file("secret.jpg")))
        let names = Set(try await library.assets().map(\.originalFilename))
        #expect(names.isSuperset(of: ["line\nbreak.jpg", (longName as NSString).lastPathComponent]))
        #expect(!names.contains("link.jpg") && !names.contains("secret.jpg") && !names.contains("pipe.jpg"))
        #expect(library.daemon.isRunning)
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aFileTooBigForTheLibraryDiskWaitsInTheDropFolderWhileSmallerOnesFit() async throws {
        let drop = try TemporaryDirectory()
        let daemon = try DaemonProcess(extraConfig: "[[source]]\npath = \"\(drop.path)\"\nmode = \"move\"\n")
        try FileManager.default.createDirectory(atPath: daemon.libraryPath, withIntermediateDirectories: true)
        try runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", daemon.libraryPath])
        defer { _ = try? runTool("/bin/umount", ["-l", daemon.libraryPath]) }
        try await daemon.start()
        let library = try await WatchedLibrary(daemon: daemon)
        let big = drop.file("big.jpg")
        try (MediaFixtures.datedJPEG + Data(repeating: 7, count: 2_000_000)).write(to: URL(fileURLWithPath: big))
        try await library.waitUntil("the big file is said to wait") {
            try await library.status().lastError?.hasPrefix(big + ": cannot write to the library: No space left on device") == true
        }
        #expect(try await library.status().failed == 0)
        #expect(FileManager.default.fileExists(atPath: big))
        try MediaFixtures.jpegVariant(9).write(to: URL(fileURLWithPath: drop.file("small.jpg")))
        // Its import's files are settled after its commit (once synced): nothing is left behind once they are.
        try await library.waitUntil("a small file still fits and nothing is left in incoming") {
            try await library.assets().count == 1 && filesUnder(daemon.libraryPath + "/incoming").isEmpty
        }
        #expect(FileManager.default.fileExists(atPath: big))
        try await daemon.stop()
    }

    @Test func rawFilesAndLivePhotoMoviesJoinTheStillOfTheirName() async throws {
        let folder = try TemporaryDirectory(), staging = try TemporaryDirectory()
        let library = try await WatchedLibrary.start(sources: [(folder.path, "copy")])
        var (observer, observerClient) = try await InsertionCollector.start(library.daemon)
        try MediaFixtures.jpegVariant(1).write(to: URL(fileURLWithPath: staging.file("IMG_0001.JPG")))
        _ = try RawFileTests.dng(at: staging.file("IMG_0001.DNG"), width: 64, height: 48)
        try MediaFixtures.jpegVariant(2).write(to: URL(fileURLWithPath: staging.file("IMG_0002.JPG")))
        try MediaFixtures.movie(at: staging.file("IMG_0002.MOV"))
        try runTool("/bin/mv", [staging.file("IMG_0001.JPG"), staging.file("IMG_0001.DNG"), staging.file("IMG_0002.JPG"),
                                staging.file("IMG_0002.MOV"), folder.path])
        try await observer.readInsertions(until: 2)
        try await library.waitUntil("both pairs are complete") {
            try await library.assets().allSatisfy { $0.resources?.count == 2 }
        }
        var assets = try await library.assets()
        #expect(assets.count == 2)
        let raw = try #require(assets.first { $0.originalFilename == "IMG_0001.JPG" })
        #expect(raw.resources?.map(\.type.rawValue) == ["photo", "alternatePhoto"])
        let live = try #require(assets.first { $0.originalFilename == "IMG_0002.JPG" })
        #expect(live.mediaSubtypes.contains(.photoLive))
        #expect(live.resources?.map(\.type.rawValue) == ["photo", "pairedVideo"])

        // A RAW first, its JPEG later: one asset, the JPEG becomes its photo, reported as a change.
        try runTool("/bin/mv", [try RawFileTests.dng(at: staging.file("DSC_0003.DNG"), width: 80, height: 60), folder.path])
        try await observer.readInsertions(until: 3)
        let rawOnly = observer.inserted[2]
        try MediaFixtures.jpegVariant(3).write(to: URL(fileURLWithPath: folder.file("DSC_0003.JPG")))
        try await library.waitUntil("the late JPEG joins") {
            try await library.assets().first { $0.id == rawOnly }?.resources?.count == 2
        }
        assets = try await library.assets()
        #expect(assets.count == 3)
        let joined = try #require(assets.first { $0.id == rawOnly })
        #expect(joined.originalFilename == "DSC_0003.JPG")
        #expect(joined.pixelWidth == 64)
        #expect(joined.resources?.map(\.type.rawValue) == ["photo", "alternatePhoto"])
        await observerClient.close()
    }

    @Test func videosAudioAndNamedDatesGetTheirMetadata() async throws {
        let folder = try TemporaryDirectory()
        let library = try await WatchedLibrary.start(sources: [(folder.path, "reference")])
        try MediaFixtures.movie(at: folder.file("fast.mp4"), rate: 120, size: "96x64")
        try MediaFixtures.movie(at: folder.file("android-slomo.mp4"), rate: 30, captureRate: 240)
        try MediaFixtures.movie(at: folder.file("android-timelapse.mp4"), rate: 30, captureRate: 2)
        try MediaFixtures.movie(at: folder.file("android-plain.mp4"), rate: 30, captureRate: 30)
        try MediaFixtures.sound(at: folder.file("tone.wav"))
        let named = folder.file("IMG_20240131_101500.png")
        try ImageFixtures.image(at: named, width: 20, height: 10)
        try await library.waitUntil("six assets") { try await library.assets().count == 6 }
        let assets = try await library.assets()
        let video = try #require(assets.first { $0.originalFilename == "fast.mp4" })
        #expect(video.mediaType.rawValue == "video")
        #expect(video.mediaSubtypes == .videoHighFrameRate)
        let subtypes = Dictionary(uniqueKeysWithValues: assets.map { ($0.originalFilename, $0.mediaSubtypes) })
        #expect(subtypes["android-slomo.mp4"] == .videoHighFrameRate)
        #expect(subtypes["android-timelapse.mp4"] == .videoTimelapse)
        #expect(subtypes["android-plain.mp4"] == [])
        #expect(video.pixelWidth == 96 && video.pixelHeight == 64)
        #expect(abs(video.duration - 1) < 0.1)
        let audio = try #require(assets.first { $0.originalFilename == "tone.wav" })
        #expect(audio.mediaType.rawValue == "audio")
        #expect(abs(audio.duration - 1) < 0.1)
        let photo = try #require(assets.first { $0.originalFilename == "IMG_20240131_101500.png" })
        #expect(photo.creationDate?.rfc3339.hasPrefix("2024-01-31T10:15:00") == true)
        #expect(photo.creationDateSource == .fileName)
        #expect(photo.resources?.first?.path == named)
    }

    /// Writes a PNG declaring `width`×`height` pixels with a one-byte IDAT and IEND (Python computes the CRCs).
    static func writePNGHeader(width: Int, height: Int, to path: String) throws {
        try runTool("/usr/bin/python3", ["-c", """
            import struct, sys, zlib
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            header = struct.pack(">IIBBBBB", \(width), \(height), 8, 0, 0, 0, 0)
            data = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\\x00")) + chunk(b"IEND", b"")
            open(sys.argv[1], "wb").write(data)
            """, path])
    }

    /// Creates a file whose name is raw bytes (maybe not UTF-8); returns its path as the daemon reports it.
    static func createFile(named name: [UInt8], in folder: String, contents: Data) -> String {
        let path = Array(folder.utf8) + [0x2F] + name + [0]
        let descriptor = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY | O_TRUNC, 0o644) }
        }
        contents.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        return folder + "/" + String(decoding: name, as: UTF8.self)
    }
}
