import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// Camera RAW files through LibRaw: real DNG files written from synthetic Bayer data (PyPI's pidng), checked
/// against rawpy (LibRaw's Python binding) as an independent reader.
@Suite(.serialized)
struct RawFileTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Interop/raw_fixture.py").path

    /// Writes a DNG of `width`×`height` sensor pixels with an EXIF orientation and, when given, a JPEG preview.
    static func dng(at path: String, width: Int, height: Int, orientation: Int = 1, preview: (Int, Int)? = nil) throws -> String {
        var arguments = ["python3", fixture, "make", path, String(width), String(height), String(orientation)]
        if let preview { arguments += [String(preview.0), String(preview.1)] }
        try runTool("/usr/bin/env", arguments)
        return path
    }

    /// What rawpy reports of `path` with `command` (`sizes`, `compare`), as JSON.
    static func rawpy(_ command: String, _ arguments: String...) throws -> [String: Any] {
        let output = try runTool("/usr/bin/env", ["python3", fixture, command] + arguments).output
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
    }

    @Test(arguments: [1, 6, 8, 3])
    func aLoneRAWFileHasTheSizeOrientationAndCameraLibRawReads(orientation: Int) async throws {
        let library = try await ImageLibrary.start()
        let path = try Self.dng(at: library.photos.file("IMG_\(orientation).dng"), width: 600, height: 400,
                                orientation: orientation, preview: (300, 200))
        let id = try #require(try await library.importByReference([path]).first)
        let asset = try #require(try await library.client.fetchAssets(matching: AssetQuery(ids: [id])).assets.first)
        let reference = try Self.rawpy("sizes", path)
        #expect(asset.pixelWidth == reference["width"] as? Int && asset.pixelHeight == reference["height"] as? Int,
                "\(asset.pixelWidth)x\(asset.pixelHeight) against rawpy's \(reference)")
        #expect(asset.orientation == orientation)
        #expect(asset.camera.make == "Synthetic" && asset.camera.model == "Bayer One")
        let raws = try await library.client.fetchAssets(matching: AssetQuery(collection: try await Self.rawAlbum(library)))
        #expect(raws.assets.map(\.id) == [id])

        // The whole image is a real decode, upright, with rawpy's pixels.
        let whole = try await library.requestImage(.target(id, -1, -1, deliveryMode: .highQuality))
        #expect(whole.size == (asset.pixelWidth, asset.pixelHeight) && !whole.isDegraded)
        let compared = try Self.rawpy("compare", path, whole.path)
        #expect((compared["meanDifference"] as? Double ?? 255) < 4, "\(compared)")

        // The file itself is what RequestImageData gives.
        let data = try await library.client.requestImageData(for: id)
        #expect(FileManager.default.contentsEqual(atPath: data.path, andPath: path) && data.mimeType == "image/x-adobe-dng")
    }

    /// The preview here is grey noise (one band) and the sensor data colour: each image tells where it came from.
    @Test func thePreviewAnswersThumbnailsAndTheDegradedReplyAtOnce() async throws {
        let library = try await ImageLibrary.start()
        let path = try Self.dng(at: library.photos.file("preview.dng"), width: 1200, height: 800, orientation: 6,
                                preview: (600, 400))
        let id = try #require(try await library.importByReference([path]).first)
        let thumbnail = try #require(try await library.streamImage(.target(id, 256, 256, resizeMode: .exact)).last)
        #expect(thumbnail.size == (171, 256) && !thumbnail.isDegraded, "upright")
        #expect(try Self.bands(of: thumbnail.path) == 1, "made from the preview")
        let highQuality = try await library.requestImage(.target(id, 256, 256, resizeMode: .exact, deliveryMode: .highQuality))
        #expect(highQuality.size == (171, 256) && highQuality.path != thumbnail.path)
        #expect(try Self.bands(of: highQuality.path) == 3, "a high-quality request decodes the sensor data")
        let images = try await library.streamImage(.target(id, 1000, 1000, resizeMode: .exact))
        #expect(images.map(\.isDegraded) == [true, false])
        #expect(images.first.map { $0.height > $0.width } == true, "a degraded image at hand, upright")
        let final = try #require(images.last)
        #expect(final.size == (667, 1000))
        #expect(try Self.bands(of: final.path) == 3, "the preview is too small: a decode")
    }

    static func bands(of path: String) throws -> Int? {
        Int(try runTool("/usr/bin/vipsheader", ["-f", "bands", path]).output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aRAWFileReferencedInPlaceGetsFreedesktopThumbnails() async throws {
        let thumbnails = try TemporaryDirectory()
        let library = try await ImageLibrary.start(extraConfig: "[images]\nfreedesktop_thumbnails = \"\(thumbnails.path)\"\n")
        let path = try Self.dng(at: library.photos.file("IMG_0001.dng"), width: 1200, height: 800, orientation: 6,
                                preview: (600, 400))
        _ = try #require(try await library.importByReference([path]).first)
        let name = try md5("file://" + path)
        let large = thumbnails.path + "/large/\(name).png", normal = thumbnails.path + "/normal/\(name).png"
        try await library.waitUntil("the thumbnails are written") {
            FileManager.default.fileExists(atPath: large) && FileManager.default.fileExists(atPath: normal)
        }
        #expect(try ImageProbe.size(of: large) == (171, 256) && ImageProbe.size(of: normal) == (85, 128), "upright")
        let uri = try runTool("/usr/bin/exiftool", ["-s", "-s", "-s", "-ThumbURI", large]).output
        #expect(uri.trimmingCharacters(in: .whitespacesAndNewlines) == "file://" + path)
    }

    @Test func aRAWWithoutAPreviewIsDecodedForItsThumbnails() async throws {
        let library = try await ImageLibrary.start()
        let path = try Self.dng(at: library.photos.file("bare.dng"), width: 1000, height: 600)
        let id = try #require(try await library.importByReference([path]).first)
        let image = try await library.requestImage(.target(id, 200, 200, resizeMode: .exact, deliveryMode: .highQuality))
        #expect(image.size == (200, 120) && !image.isDegraded)
        #expect(try await library.client.fetchAssets(matching: AssetQuery(ids: [id])).assets.first?.pixelWidth == 1000)
    }

    @Test func brokenOrHostileRAWFilesAreRefusedWithAReasonAndTheDaemonStaysUp() async throws {
        let library = try await ImageLibrary.start()
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Self.dng(at: library.photos.file("whole.dng"), width: 400, height: 300)))
        let truncated = library.photos.file("truncated.dng")
        try whole.prefix(whole.count / 3).write(to: URL(fileURLWithPath: truncated))
        let noise = library.photos.file("noise.nef")
        try Data((0..<65_536).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: noise))
        let bomb = library.photos.file("bomb.dng")
        try runTool("/usr/bin/env", ["python3", Self.fixture, "bomb", bomb, "100000", "100000"])

        let files = try await library.client.importFiles([truncated, noise, bomb], mode: .reference).files
        for file in files {
            #expect(file.status == .failed && file.error?.isEmpty == false, "\(file)")
        }

        #expect(try await library.client.fetchAssets().count == 0)
        _ = try await library.importByReference([library.photos.file("whole.dng")])
    }

    @Test func aBasicEditOfARAWRendersFromItsDecode() async throws {
        let library = try await ImageLibrary.start()
        let path = try Self.dng(at: library.photos.file("edit.dng"), width: 600, height: 400, orientation: 6, preview: (300, 200))
        let id = try #require(try await library.importByReference([path]).first)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.editAsset(id, basic: BasicAdjustment(rotate: 90))
        _ = try await library.client.performChanges(changes)
        let edited = try #require(try await library.client.fetchAssets(matching: AssetQuery(ids: [id])).assets.first)
        #expect(edited.hasAdjustments && edited.pixelWidth == 600 && edited.pixelHeight == 400,
                "the 400x600 upright decode turned a quarter: \(edited.pixelWidth)x\(edited.pixelHeight)")
        let image = try await library.requestImage(.target(id, -1, -1, deliveryMode: .highQuality))
        #expect(image.size == (600, 400))
        let original = try await library.client.requestImageData(for: id, version: .original)
        #expect(FileManager.default.contentsEqual(atPath: original.path, andPath: path))
    }

    @Test func theOriginalVersionOfARAWAndJPEGPairIsTheRAW() async throws {
        let library = try await ImageLibrary.start()
        let jpeg = try MarkedPhotos.write(at: library.photos.file("IMG_7.JPG"), width: 300, height: 200, orientation: 1)
        let raw = try Self.dng(at: library.photos.file("IMG_7.DNG"), width: 600, height: 400, preview: (300, 200))
        let files = try await library.client.importFiles([jpeg, raw], mode: .reference).files
        let id = try #require(files.first?.assetId)
        #expect(files.map(\.assetId) == [id, id], "one asset: \(files)")

        #expect(try await library.client.requestImageData(for: id).path == jpeg)
        #expect(try await library.client.requestImageData(for: id, version: .original).path == raw)
        let shown = try await library.requestImage(.target(id, -1, -1, deliveryMode: .highQuality))
        #expect(shown.size == (300, 200))
        var request = RequestImageParameters.target(id, -1, -1, deliveryMode: .highQuality)
        request.version = .original
        let original = try await library.requestImage(request)
        #expect(original.size == (600, 400) && original.path != shown.path)
        let compared = try Self.rawpy("compare", raw, original.path)
        #expect((compared["meanDifference"] as? Double ?? 255) < 4, "\(compared)")
    }

    @Test func theCaptureTimeKeepsTheOffsetTheCameraWrote() async throws {
        let library = try await ImageLibrary.start()
        let path = try Self.dng(at: library.photos.file("dated.dng"), width: 600, height: 400)
        try runTool("/usr/bin/exiftool", ["-q", "-q", "-overwrite_original", "-DateTimeOriginal=2024:06:01 12:00:00",
                                          "-SubSecTimeOriginal=25", "-OffsetTimeOriginal=+02:00", path])
        let id = try #require(try await library.importByReference([path]).first)
        let asset = try #require(try await library.client.fetchAssets(matching: AssetQuery(ids: [id])).assets.first)
        #expect(asset.creationDate?.rfc3339 == "2024-06-01T12:00:00.250+02:00" && asset.creationDateSource == .exif,
                "\(String(describing: asset.creationDate)) \(String(describing: asset.creationDateSource))")
    }

    @Test func theImagePixelLimitHoldsForRAWFiles() async throws {
        let library = try await ImageLibrary.start(extraConfig: "[images]\nmax_pixels = 100000\n")
        let path = try Self.dng(at: library.photos.file("big.dng"), width: 600, height: 400)
        let file = try #require(try await library.client.importFiles([path], mode: .reference).files.first)
        #expect(file.status == .failed && file.error?.contains("100000") == true, "\(file)")
    }

    static func rawAlbum(_ library: ImageLibrary) async throws -> String {
        try #require(try await library.client.fetchCollections(matching: CollectionQuery(subtype: .smartAlbumRAW)).collections.first).id
    }
}
