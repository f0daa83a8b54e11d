import Foundation
import Photos
import Testing
import TestSupport

/// The seeds' calls, written as the seeds write them, with `PHImage` for `UIImage`.
extension PhotosModuleTests {
    @Test func anImageInMemoryBecomesAnAssetWhosePlaceholderIdIsFinalInsideTheBlock() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let path = try ImageFixtures.image(at: directory.file("in-memory.jpg"), width: 150, height: 100)
        let image = try #require(PHImage(data: try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(image.size == CGSize(width: 150, height: 100) && image.imageOrientation == .up)

        // A picker saves the image and keeps the new asset's identifier from inside the block.
        var identifierInsideTheBlock: String?
        try await PHPhotoLibrary.shared().performChanges {
            let request = PHAssetChangeRequest.creationRequestForAsset(from: image)
            identifierInsideTheBlock = request.placeholderForCreatedAsset?.localIdentifier
        }
        let identifier = try #require(identifierInsideTheBlock)
        let saved = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject)
        #expect(saved.pixelWidth == 150 && saved.pixelHeight == 100 && saved.mediaType == .image)
    }

    @Test func requestImageDataGivesTheBytesAndTheFilesURL() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let path = directory.file("turned.jpg")
        try ImageFixtures.image(at: path, width: 200, height: 100, exif: ["-Orientation#=6"])
        let asset = try #require(try PhotosDaemon.importAssets([URL(fileURLWithPath: path)]).first)

        let delivered = DeliveredImageData()
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        // As seed 001 calls it (deprecated on Apple's platforms as here).
        (PHImageManager.default() as any ImageDataRequesting).requestImageData(for: asset, options: options) {
            data, uti, orientation, info in
            delivered.set(data, uti, orientation, info?["PHImageFileURLKey"] as? URL)
        }
        #expect(delivered.data == (try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(delivered.uti == "public.jpeg" && delivered.orientation == .right)
        let url = try #require(delivered.url)
        #expect(url.isFileURL && url.lastPathComponent.hasSuffix(".jpg"))
    }

    @Test func bytesThatAreNotAnImageMakeNoImageAndFailTheBlock() async throws {
        _ = try await PhotosDaemon.shared()
        #expect(PHImage(data: Data("not an image".utf8)) == nil)
        #expect(PHImage(data: Data()) == nil)
        #expect(PHImage(contentsOfFile: "/nonexistent/photo.jpg") == nil)

        let before = PHAsset.fetchAssets(with: nil).count
        do {
            try PHPhotoLibrary.shared().performChangesAndWait {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, data: Data("garbage".utf8), options: nil)
            }
            Issue.record("garbage became an asset")
        } catch let error as PHPhotosError {
            #expect(error.code == .invalidResource && error.localizedDescription.contains("upload"))
        }
        #expect(PHAsset.fetchAssets(with: nil).count == before)
    }

    @Test func imagesHoldTheirBytesAndEncodeThemAgain() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("portrait.jpg")
        try ImageFixtures.image(at: path, width: 80, height: 40, exif: ["-Orientation#=8"])
        let image = try #require(PHImage(contentsOfFile: path))
        #expect(image.size == CGSize(width: 40, height: 80) && image.imageOrientation == .left)
        #expect(image.fileURL?.path == path && image.mimeType == "image/jpeg")

        let png = try #require(image.pngData())
        let upright = try #require(PHImage(data: png))
        #expect(upright.mimeType == "image/png" && upright.size == CGSize(width: 40, height: 80) && upright.imageOrientation == .up)
        let small = try #require(image.jpegData(compressionQuality: 0.1))
        let large = try #require(image.jpegData(compressionQuality: 1))
        #expect(small.count < large.count && PHImage(data: small)?.size == CGSize(width: 40, height: 80))
    }
}

/// Seed 001's call, through a protocol: the method is deprecated, as on Apple's platforms, and a test must not warn.
protocol ImageDataRequesting {
    @discardableResult
    func requestImageData(for asset: PHAsset, options: PHImageRequestOptions?,
                          resultHandler: @escaping (Data?, String?, PHImage.Orientation, [AnyHashable: Any]?) -> Void)
        -> PHImageRequestID
}

extension PHImageManager: ImageDataRequesting {}

/// What `requestImageData` gave.
final class DeliveredImageData: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Data?, String?, PHImage.Orientation, URL?)?

    func set(_ data: Data?, _ uti: String?, _ orientation: PHImage.Orientation, _ url: URL?) {
        lock.withLock { value = (data, uti, orientation, url) }
    }

    var data: Data? { lock.withLock { value?.0 } }
    var uti: String? { lock.withLock { value?.1 } }
    var orientation: PHImage.Orientation? { lock.withLock { value?.2 } }
    var url: URL? { lock.withLock { value?.3 } }
}
