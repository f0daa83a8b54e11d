import Foundation
import PhotoLibrary
import Photos
import Testing
import TestSupport

/// Resources: several per created asset, listed and read back through the resource manager.
extension PhotosModuleTests {
    @Test func aLivePhotoMadeOfTwoResourcesIsRequestedBackWithBoth() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let photo = try ImageFixtures.image(at: directory.file("IMG_0001.JPG"), width: 120, height: 90)
        let movie = try VideoFixtures.clip(at: directory.file("IMG_0001.MOV"), width: 160, height: 120, seconds: 1)
        var placeholder: PHObjectPlaceholder?
        try await PHPhotoLibrary.shared().performChanges {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.originalFilename = "IMG_0001.JPG"
            // The photo as bytes, the movie as a file: both as apps hand them over.
            request.addResource(with: .photo, data: (try? Data(contentsOf: URL(fileURLWithPath: photo))) ?? Data(),
                                options: options)
            request.addResource(with: .pairedVideo, fileURL: URL(fileURLWithPath: movie), options: nil)
            placeholder = request.placeholderForCreatedAsset
        }
        let id = try #require(placeholder?.localIdentifier)
        let asset = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject)
        #expect(asset.mediaSubtypes.contains(.photoLive) && asset.playbackStyle == .livePhoto)

        let resources = PHAssetResource.assetResources(for: asset)
        #expect(resources.map(\.type) == [.photo, .pairedVideo])
        #expect(resources.map(\.originalFilename) == ["IMG_0001.JPG", "IMG_0001.MOV"])
        #expect(resources.map(\.uniformTypeIdentifier) == ["public.jpeg", "com.apple.quicktime-movie"])
        #expect(resources.allSatisfy { $0.assetLocalIdentifier == id })

        let live = LiveDelivery()
        PHImageManager.default().requestLivePhoto(for: asset, targetSize: CGSize(width: 60, height: 60), contentMode: .aspectFit,
                                                  options: nil) { live.set($0, $1) }
        let livePhoto = try #require(try await eventually { live.photo })
        #expect(livePhoto.size == CGSize(width: 60, height: 45))
        #expect(PHAssetResource.assetResources(for: livePhoto).map(\.type) == [.photo, .pairedVideo])

        // The movie's bytes, in chunks and written to a file, are the file that was added.
        let chunks = Chunks()
        let done = Outcome()
        PHAssetResourceManager.default().requestData(for: resources[1], options: nil,
                                                     dataReceivedHandler: { chunks.add($0) },
                                                     completionHandler: { done.set($0 == nil, $0) })
        #expect(try await eventually { done.isSet } && done.success == true)
        #expect(chunks.joined == (try Data(contentsOf: URL(fileURLWithPath: movie))))
        let written = URL(fileURLWithPath: directory.file("written.mov"))
        try await PHAssetResourceManager.default().writeData(for: resources[1], toFile: written, options: nil)
        #expect(try Data(contentsOf: written) == (try Data(contentsOf: URL(fileURLWithPath: movie))))

        // A still is not a Live Photo.
        let still = try #require(try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory, year: 2015)).first)
        let refused = LiveDelivery()
        PHImageManager.default().requestLivePhoto(for: still, targetSize: PHImageManagerMaximumSize, contentMode: .default,
                                                  options: nil) { refused.set($0, $1) }
        #expect(try await eventually { refused.isSet })
        #expect((refused.info?[PHImageErrorKey] as? PHPhotosError)?.code == .requestNotSupportedForAsset)
    }

    @Test func writingAResourceIntoAMissingFolderOrCancelledLeavesNoFile() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let clip = try VideoFixtures.clip(at: directory.file("noise.mp4"), width: 640, height: 360, seconds: 3, noise: true)
        var placeholder: PHObjectPlaceholder?
        try PHPhotoLibrary.shared().performChangesAndWait {
            placeholder = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: URL(fileURLWithPath: clip))?
                .placeholderForCreatedAsset
        }
        let asset = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [placeholder!.localIdentifier], options: nil).firstObject)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)

        let missing = URL(fileURLWithPath: directory.file("no-such-folder/out.mp4"))
        do {
            try await PHAssetResourceManager.default().writeData(for: resource, toFile: missing, options: nil)
            Issue.record("a file was written into a folder that does not exist")
        } catch let error as PHPhotosError {
            #expect(error.localizedDescription.contains("No such file or directory"))
        }

        // The handler holds the first chunk until the request is cancelled, so the rest cannot arrive before it is.
        let clipSize = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
        #expect(clipSize > FileTransfers.chunkSize, "the clip must take more than one chunk of the transfer")
        let target = URL(fileURLWithPath: directory.file("cancelled.mp4"))
        let outcome = Outcome()
        let manager = PHAssetResourceManager.default()
        let started = Chunks(), cancelled = DispatchGroup()
        cancelled.enter()
        let request = manager.requestData(for: resource, options: nil, dataReceivedHandler: { chunk in
            started.add(chunk)
            _ = cancelled.wait(timeout: .now() + 60)
        }, completionHandler: { outcome.set($0 == nil, $0) })
        #expect(try await eventually { !started.joined.isEmpty })
        manager.cancelDataRequest(request)
        cancelled.leave()
        #expect(try await eventually { outcome.isSet })
        #expect((outcome.error as? PHPhotosError)?.code == .userCancelled)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}

/// What a Live Photo request's handler was given.
final class LiveDelivery: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (PHLivePhoto?, [AnyHashable: Any]?)?

    func set(_ photo: PHLivePhoto?, _ info: [AnyHashable: Any]?) { lock.withLock { value = (photo, info) } }
    var isSet: Bool { lock.withLock { value != nil } }
    var photo: PHLivePhoto? { lock.withLock { value?.0 } }
    var info: [AnyHashable: Any]? { lock.withLock { value?.1 } }
}

/// The chunks a data request delivered, in order.
final class Chunks: @unchecked Sendable {
    private let lock = NSLock()
    private var chunks: [Data] = []

    func add(_ chunk: Data) { lock.withLock { chunks.append(chunk) } }
    var joined: Data { lock.withLock { chunks.reduce(Data(), +) } }
}
