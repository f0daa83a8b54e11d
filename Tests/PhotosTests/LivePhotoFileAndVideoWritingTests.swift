import Foundation
import Photos
import TestSupport
import Testing

/// Live Photos made from files, as app code makes them.
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
