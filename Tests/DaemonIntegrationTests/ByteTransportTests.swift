import Foundation
import Glibc
import PhotoLibrary
import Testing
import TestSupport
import Varlink

/// The byte transport: files the daemon named, read through the socket (`Images.ReadFile`), and uploads for
/// `createAsset` (`Import.Upload`), each on an upgraded call.
@Suite(.serialized)
struct ByteTransportTests {
    /// Runs blocking client work on a thread of its own.
    static func onThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    @Test func aFileTheDaemonNamedIsReadThroughTheSocketInRanges() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let original = try await library.client.requestImageData(for: library.assetIds[0])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: original.path))
        let socketPath = library.daemon.socketPath
        let (whole, middle, sizes) = try await Self.onThread {
            let connection = try VarlinkRawConnection.connect(socketPath: socketPath)
            func read(_ offset: Int?, _ length: Int?) throws -> (ReadFileReply, [UInt8]) {
                let reply = try connection.call("io.photolibd.Images.ReadFile",
                                                parameters: ReadFileParameters(path: original.path, offset: offset, length: length),
                                                returning: ReadFileReply.self)
                var received = [UInt8](repeating: 0, count: reply.length)
                try received.withUnsafeMutableBytes { try connection.readRaw(exactly: $0) }
                return (reply, received)
            }
            let whole = try read(nil, nil), middle = try read(100, 50), past = try read(bytes.count, 10)
            return (whole.1, middle.1, [whole.0.fileSize, middle.0.length, past.0.length])
        }
        #expect(Data(whole) == bytes)
        #expect(Data(middle) == bytes[100..<150])
        #expect(sizes == [bytes.count, 50, 0])
    }

    @Test func aPathTheDaemonNeverNamedIsNotServed() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let socketPath = library.daemon.socketPath
        let libraryFile = library.daemon.libraryPath + "/library.sqlite"
        for path in ["/etc/passwd", libraryFile, library.daemon.libraryPath + "/../photolibd.conf"] {
            try await Self.onThread {
                let connection = try VarlinkRawConnection.connect(socketPath: socketPath)
                #expect(throws: VarlinkError("io.photolibd.Images.NotFound", parameters: ["id": .string(path)])) {
                    try connection.call("io.photolibd.Images.ReadFile", parameters: ReadFileParameters(path: path),
                                        returning: ReadFileReply.self)
                }
            }
        }
    }

    @Test func uploadedBytesBecomeAnAssetWithTheChosenIdAndLeaveNothingBehind() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 0)
        let photo = try ImageFixtures.image(at: library.photos.file("sent.jpg"), width: 90, height: 60)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: photo))
        let transfers = library.client.transfers
        let upload = try await transfers.onThread { () throws(PhotoLibraryError) in try transfers.upload(bytes) }
        let chosen = UUID().uuidString.lowercased()
        let result = try await library.change { _ = $0.createAsset(from: [NewAssetFile(upload: upload)], id: chosen) }
        #expect(result.created.values.contains(chosen))
        let asset = try #require(try await library.client.fetchAssets(matching: AssetQuery(ids: [chosen])).assets.first)
        #expect(asset.pixelWidth == 90 && asset.pixelHeight == 60 && asset.originalFilename == "upload.jpg")
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.daemon.libraryPath + "/uploads") == [])

        // Taken once: the same upload again is refused, and so is one never made.
        for id in [upload, "no-such-upload"] {
            await #expect(throws: PhotoLibraryError.self) {
                try await library.change { _ = $0.createAsset(from: [NewAssetFile(upload: id)]) }
            }
        }
    }

    @Test func anEditsRenderedFileCanBeSentInsteadOfNamed() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let rendered = try ImageFixtures.image(at: library.photos.file("rendered.jpg"), width: 40, height: 30)
        let transfers = library.client.transfers
        let upload = try await transfers.onThread { () throws(PhotoLibraryError) in try transfers.upload(contentsOf: rendered) }
        let adjustment = Adjustment(formatIdentifier: "org.example.app", formatVersion: "1", data: "")
        _ = try await library.client.performChanges([ChangeRequest(op: "editAsset", target: library.assetIds[0],
                                                                   adjustment: adjustment, upload: upload)])
        let edited = try #require(try await library.client.fetchAssets(matching: AssetQuery(ids: library.assetIds)).assets.first)
        #expect(edited.hasAdjustments && edited.pixelWidth == 40 && edited.pixelHeight == 30)
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.daemon.libraryPath + "/uploads") == [])
    }

    @Test func anUploadThatIsNotMediaFailsTheChangeAndChangesNothing() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 0)
        let transfers = library.client.transfers
        let upload = try await transfers.onThread { () throws(PhotoLibraryError) in
            try transfers.upload(Data("not a photo at all".utf8), filename: "holiday.jpg")
        }
        let before = try await library.client.fetchAssets().token
        do {
            _ = try await library.change { _ = $0.createAsset(from: [NewAssetFile(upload: upload)]) }
            Issue.record("garbage became an asset")
        } catch let error as PhotoLibraryError {
            #expect(error.code == .invalidChange && error.message.contains("holiday.jpg"))
        }
        #expect(try await library.client.fetchAssets().token == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.daemon.libraryPath + "/uploads") == [])
    }

    @Test func aClientThatHangsUpMidUploadLeavesNothing() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 0)
        let socketPath = library.daemon.socketPath
        try await Self.onThread {
            let connection = try VarlinkRawConnection.connect(socketPath: socketPath)
            _ = try connection.call("io.photolibd.Import.Upload", parameters: UploadParameters(size: 10_000_000),
                                    returning: UploadReply.self)
            try [UInt8](repeating: 7, count: 3_000_000).withUnsafeBytes { try connection.writeRaw($0) }
            connection.shutDown()
        }
        let uploads = library.daemon.libraryPath + "/uploads"
        #expect(try await eventually { try FileManager.default.contentsOfDirectory(atPath: uploads).isEmpty })
        #expect(try await library.client.fetchAssets().count == 0)
    }

    @Test func anUploadLargerThanTheFreeSpaceIsRefusedBeforeAnyByte() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 0)
        let socketPath = library.daemon.socketPath
        let refusal = try await Self.onThread { () -> VarlinkError? in
            let connection = try VarlinkRawConnection.connect(socketPath: socketPath)
            do {
                _ = try connection.call("io.photolibd.Import.Upload", parameters: UploadParameters(size: 1 << 60),
                                        returning: UploadReply.self)
                return nil
            } catch let error as VarlinkError {
                return error
            }
        }
        #expect(refusal?.name == "io.photolibd.Import.NotEnoughSpace")
    }
}
