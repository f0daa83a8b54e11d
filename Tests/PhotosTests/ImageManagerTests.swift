import Foundation
import Photos
import PhotoLibrary
import Testing
import TestSupport

/// What one image request's handler was given, in order.
final class DeliveredImages: @unchecked Sendable {
    private let lock = NSLock()
    private var deliveries: [(image: PHImage?, info: [AnyHashable: Any])] = []

    func add(_ image: PHImage?, _ info: [AnyHashable: Any]?) {
        lock.withLock { deliveries.append((image, info ?? [:])) }
    }

    var all: [(image: PHImage?, info: [AnyHashable: Any])] { lock.withLock { deliveries } }

    /// Whether the final image (or a failure or cancellation) was delivered.
    var isFinished: Bool {
        all.contains { $0.info[PHImageResultIsDegradedKey] as? Bool != true }
    }
}

extension PhotosModuleTests {
    @Test func imageRequestsDeliverInEveryModeAndCanBeCancelled() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let path = directory.file("large.jpg")
        try ImageFixtures.image(at: path, width: 1200, height: 800, exif: ["-Orientation#=6"])
        let asset = try #require(try PhotosDaemon.importAssets([URL(fileURLWithPath: path)]).first)
        #expect(asset.pixelWidth == 800 && asset.pixelHeight == 1200)
        let manager = PHImageManager.default()

        // Synchronous: the handler ran once, with the final image, before the call returned.
        let synchronous = PHImageRequestOptions()
        synchronous.isSynchronous = true
        synchronous.resizeMode = .exact
        let sync = DeliveredImages()
        let syncId = manager.requestImage(for: asset, targetSize: CGSize(width: 300, height: 300), contentMode: .aspectFit,
                                          options: synchronous) { sync.add($0, $1) }
        #expect(sync.all.count == 1)
        let syncImage = try #require(sync.all.first?.image)
        #expect(syncImage.size == CGSize(width: 200, height: 300))
        #expect(sync.all.first?.info[PHImageResultIsDegradedKey] as? Bool == false)
        #expect(sync.all.first?.info[PHImageResultRequestIDKey] as? PHImageRequestID == syncId && syncId != PHInvalidImageRequestID)
        #expect(try syncImage.data().starts(with: [0xFF, 0xD8]))

        // Opportunistic: degraded images first, if any, then exactly one final image, on another thread.
        let opportunistic = DeliveredImages()
        manager.requestImage(for: asset, targetSize: CGSize(width: 120, height: 120), contentMode: .aspectFill,
                             options: nil) { opportunistic.add($0, $1) }
        #expect(try await eventually { opportunistic.isFinished })
        let delivered = opportunistic.all
        #expect(delivered.last?.info[PHImageResultIsDegradedKey] as? Bool == false)
        #expect(delivered.dropLast().allSatisfy { $0.info[PHImageResultIsDegradedKey] as? Bool == true })
        let final = try #require(delivered.last?.image)
        #expect(min(final.size.width, final.size.height) >= 120)

        // High quality: one reply. The maximum size is the whole image, upright.
        let highQuality = PHImageRequestOptions()
        highQuality.deliveryMode = .highQualityFormat
        let whole = DeliveredImages()
        manager.requestImage(for: asset, targetSize: PHImageManagerMaximumSize, contentMode: .default,
                             options: highQuality) { whole.add($0, $1) }
        #expect(try await eventually { whole.isFinished })
        #expect(whole.all.count == 1 && whole.all[0].image?.size == CGSize(width: 800, height: 1200))

        // Cancelled before it is done: the handler hears of it.
        let caching = PHCachingImageManager()
        let cancelled = DeliveredImages()
        let cancelledId = caching.requestImage(for: asset, targetSize: CGSize(width: 640, height: 640), contentMode: .aspectFit,
                                               options: highQuality) { cancelled.add($0, $1) }
        caching.cancelImageRequest(cancelledId)
        #expect(try await eventually { cancelled.isFinished })
        let outcome = try #require(cancelled.all.last)
        #expect(outcome.image == nil ? outcome.info[PHImageCancelledKey] as? Bool == true : true)

        // Caching hints, then a request the cache answers.
        caching.startCachingImages(for: [asset], targetSize: CGSize(width: 64, height: 64), contentMode: .aspectFill, options: nil)
        caching.stopCachingImages(for: [asset], targetSize: CGSize(width: 64, height: 64), contentMode: .aspectFill, options: nil)
        caching.stopCachingImagesForAllAssets()

        // The original's bytes, type and orientation.
        let data = DeliveredData()
        manager.requestImageDataAndOrientation(for: asset, options: nil) { data.set($0, $1, $2, $3) }
        #expect(try await eventually { data.isSet })
        #expect(data.bytes == (try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(data.uti == "public.jpeg" && data.orientation == .right)
    }

    @Test func anImageOfAnAssetThatIsGoneReportsTheError() async throws {
        _ = try await PhotosDaemon.shared()
        let failed = DeliveredImages()
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        PHImageManager.default().requestImage(for: staleAsset("no-such-asset"), targetSize: CGSize(width: 10, height: 10),
                                              contentMode: .aspectFit, options: options) { failed.add($0, $1) }
        #expect(failed.all.count == 1 && failed.all[0].image == nil)
        #expect((failed.all[0].info[PHImageErrorKey] as? PHPhotosError)?.code == .identifierNotFound)
    }
}

/// What `requestImageDataAndOrientation` gave.
final class DeliveredData: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Data?, String?, CGImagePropertyOrientation)?

    func set(_ data: Data?, _ uti: String?, _ orientation: CGImagePropertyOrientation, _ info: [AnyHashable: Any]?) {
        lock.withLock { value = (data, uti, orientation) }
    }

    var isSet: Bool { lock.withLock { value != nil } }
    var bytes: Data? { lock.withLock { value?.0 } }
    var uti: String? { lock.withLock { value?.1 } }
    var orientation: CGImagePropertyOrientation? { lock.withLock { value?.2 } }
}
