import AssetsLibrary
import Foundation
import Photos
import TestSupport
import Testing

/// Live Photos made from files, and AssetsLibrary's video writes, image options and error codes, as app code calls them.
extension PhotosModuleTests {
    @Test func aLivePhotoIsMadeFromAStillAndAMovieFile() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let still = URL(
            fileURLWithPath: try ImageFixtures.image(at: directory.file("IMG_0003.JPG"), width: 200, height: 150))
        let movie = URL(
            fileURLWithPath: try VideoFixtures.clip(
                at: directory.file("IMG_0003.MOV"), width: 160, height: 120, seconds: 1))
        let placeholder = try #require(PHImage(contentsOfFile: still.path))

        let deliveries = LiveDeliveries()
        let requestID = PHLivePhoto.request(
            withResourceFileURLs: [movie, still], placeholderImage: placeholder,
            targetSize: CGSize(width: 100, height: 100), contentMode: .aspectFit
        ) { livePhoto, info in deliveries.add(livePhoto, info) }
        #expect(requestID != PHLivePhotoRequestIDInvalid)
        let both = try #require(try await eventually { deliveries.count >= 2 ? deliveries.all : nil })
        #expect(both[0].info[PHLivePhotoInfoIsDegradedKey] as? Bool == true)
        #expect(both[0].photo?.size == CGSize(width: 100, height: 75))
        #expect(both[1].info[PHLivePhotoInfoIsDegradedKey] as? Bool == false)
        let livePhoto = try #require(both[1].photo)
        #expect(livePhoto.size == CGSize(width: 100, height: 75))

        // Its resources are the two files, which the resource manager reads as any other.
        let resources = PHAssetResource.assetResources(for: livePhoto)
        #expect(resources.map(\.type) == [.photo, .pairedVideo])
        #expect(resources.map(\.originalFilename) == ["IMG_0003.JPG", "IMG_0003.MOV"])
        #expect(resources.map(\.contentType) == [.jpeg, .quickTimeMovie])
        let copy = URL(fileURLWithPath: directory.file("copy.mov"))
        try await PHAssetResourceManager.default().writeData(for: resources[1], toFile: copy, options: nil)
        #expect(try Data(contentsOf: copy) == Data(contentsOf: movie))

        // Two stills are no Live Photo: nil and the reason.
        let other = URL(fileURLWithPath: try ImageFixtures.image(at: directory.file("other.jpg")))
        let refused = LiveDeliveries()
        PHLivePhoto.request(
            withResourceFileURLs: [still, other], placeholderImage: nil, targetSize: .zero, contentMode: .aspectFit
        ) { refused.add($0, $1) }
        let refusal = try #require(try await eventually { refused.all.first })
        #expect(refusal.photo == nil)
        #expect((refusal.info[PHLivePhotoInfoErrorKey] as? PHPhotosError)?.code == .invalidResource)

        // A request cancelled before its files are read ends with the cancelled key, once.
        let cancelled = LiveDeliveries()
        let cancelledID = PHLivePhoto.request(
            withResourceFileURLs: [still, movie], placeholderImage: nil, targetSize: .zero, contentMode: .aspectFit
        ) { cancelled.add($0, $1) }
        PHLivePhoto.cancelRequest(withRequestID: cancelledID)
        let ended = try #require(try await eventually { cancelled.all.first })
        #expect(ended.photo == nil && ended.info[PHLivePhotoInfoCancelledKey] as? Bool == true)
        try await Task.sleep(for: .milliseconds(200))
        #expect(cancelled.count == 1)
    }

    @Test func assetsLibraryWritesAModifiedVideoAndReportsApplesErrorCodes() async throws {
        _ = try await PhotosDaemon.shared()
        let library = ALAssetsLibrary()
        let directory = try TemporaryDirectory()
        let movie = try VideoFixtures.clip(at: directory.file("clip.mp4"), width: 176, height: 144, seconds: 1.5)
        let videoURL = try #require(
            try await callback { done in
                library.writeVideoAtPath(toSavedPhotosAlbum: URL(fileURLWithPath: movie)) { url, error in
                    done(error.map { .failure($0) } ?? .success(url))
                }
            })
        let video = try #require(
            try await callback { done in
                library.asset(for: videoURL, resultBlock: { done(.success($0)) }, failureBlock: { done(.failure($0!)) })
            })

        // The modified version is a new asset of its own.
        let trimmed = try VideoFixtures.clip(at: directory.file("trimmed.mp4"), width: 176, height: 144, seconds: 0.5)
        let modifiedURL = try #require(
            try await callback { done in
                video.writeModifiedVideo(atPathToSavedPhotosAlbum: URL(fileURLWithPath: trimmed)) { url, error in
                    done(error.map { .failure($0) } ?? .success(url))
                }
            })
        #expect(modifiedURL != videoURL)
        let modified = try #require(
            try await callback { done in
                library.asset(
                    for: modifiedURL, resultBlock: { done(.success($0)) }, failureBlock: { done(.failure($0!)) })
            })
        #expect(modified.value(forProperty: ALAssetPropertyType) as? String == ALAssetTypeVideo)
        #expect(try #require(modified.value(forProperty: ALAssetPropertyDuration) as? NSNumber).doubleValue < 1)

        // A video's data cannot be replaced here: Apple's code for an asset that is not editable.
        #expect(!video.isEditable)
        let refusal = try await writeError { video.setVideoAtPath(URL(fileURLWithPath: trimmed), completionBlock: $0) }
        #expect(
            refusal.domain == ALAssetsLibraryErrorDomain && refusal.code == ALAssetsLibraryWriteIncompatibleDataError)
        #expect(refusal.localizedDescription.contains("videos"))

        // A file that is no video is invalid data, in AssetsLibrary's domain, with the daemon's reason underneath.
        let notVideo = directory.file("not-a-video.mp4")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notVideo))
        let invalid = try await writeError {
            library.writeVideoAtPath(toSavedPhotosAlbum: URL(fileURLWithPath: notVideo), completionBlock: $0)
        }
        #expect(invalid.domain == ALAssetsLibraryErrorDomain && invalid.code == ALAssetsLibraryWriteInvalidDataError)
        #expect(invalid.userInfo[NSUnderlyingErrorKey] is PHPhotosError)

        let codes: [Int] = [
            ALAssetsLibraryUnknownError, ALAssetsLibraryWriteFailedError, ALAssetsLibraryWriteBusyError,
            ALAssetsLibraryWriteInvalidDataError, ALAssetsLibraryWriteIncompatibleDataError,
            ALAssetsLibraryWriteDataEncodingError, ALAssetsLibraryWriteDiskSpaceError,
            ALAssetsLibraryDataUnavailableError, ALAssetsLibraryAccessUserDeniedError,
            ALAssetsLibraryAccessGloballyDeniedError,
        ]
        #expect(codes == [-1, -3300, -3301, -3302, -3303, -3304, -3305, -3310, -3311, -3312])
    }

    @Test func assetsLibraryMakesImagesAsImageIOsOptionsAsk() async throws {
        _ = try await PhotosDaemon.shared()
        let library = ALAssetsLibrary()
        let directory = try TemporaryDirectory()
        let path = try ImageFixtures.image(
            at: directory.file("turned.jpg"), width: 240, height: 160, exif: ["-Orientation#=6"])
        let url = try #require(
            try await callback { done in
                library.writeImageData(
                    toSavedPhotosAlbum: try! Data(contentsOf: URL(fileURLWithPath: path)), metadata: nil
                ) {
                    url, error in done(error.map { .failure($0) } ?? .success(url))
                }
            })
        let asset = try #require(
            try await callback { done in
                library.asset(for: url, resultBlock: { done(.success($0)) }, failureBlock: { done(.failure($0!)) })
            })
        let representation = try #require(asset.defaultRepresentation())
        let thumbnail = try #require(
            representation.cgImage(withOptions: [
                kCGImageSourceCreateThumbnailFromImageAlways: true, kCGImageSourceThumbnailMaxPixelSize: 120,
                kCGImageSourceCreateThumbnailWithTransform: true,
            ]))
        #expect(thumbnail.size == CGSize(width: 80, height: 120))
        #expect(try #require(representation.cgImage(withOptions: nil)).size == CGSize(width: 240, height: 160))
        let upright = try #require(
            representation.cgImage(withOptions: [kCGImageSourceCreateThumbnailWithTransform: true]))
        #expect(upright.size == CGSize(width: 160, height: 240))
    }
}

/// What the handler of a Live Photo request made from files was given, each call in order.
final class LiveDeliveries: @unchecked Sendable {
    struct Delivery {
        var photo: PHLivePhoto?
        var info: [AnyHashable: Any]
    }

    private let lock = NSLock()
    private var deliveries: [Delivery] = []

    func add(_ photo: PHLivePhoto?, _ info: [AnyHashable: Any]) {
        lock.withLock { deliveries.append(Delivery(photo: photo, info: info)) }
    }
    var count: Int { lock.withLock { deliveries.count } }
    var all: [Delivery] { lock.withLock { deliveries } }
}

/// The error an AssetsLibrary write gives its completion block.
private func writeError(_ write: (@escaping ALAssetsLibraryWriteVideoCompletionBlock) -> Void) async throws -> NSError {
    let error: (any Error)? = await withCheckedContinuation { continuation in
        write { _, error in continuation.resume(returning: error) }
    }
    return try #require(error as NSError?)
}
