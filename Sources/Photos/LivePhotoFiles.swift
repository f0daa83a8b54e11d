import AVFoundation
import Foundation
import Synchronization

/// The keys of the info a Live Photo made from files comes with.
public let PHLivePhotoInfoErrorKey = "PHLivePhotoInfoErrorKey"
public let PHLivePhotoInfoIsDegradedKey = "PHLivePhotoInfoIsDegradedKey"
public let PHLivePhotoInfoCancelledKey = "PHLivePhotoInfoCancelledKey"

extension PHLivePhoto {
    /// The requests made from files that have not delivered their Live Photo yet, and the last id given.
    private static let fileRequests = Mutex<(last: PHLivePhotoRequestID, running: Set<PHLivePhotoRequestID>)>(
        (0, []))

    /// PhotoKit's Live Photo made from a still and its movie (files of the program's, such as the resources of a Live
    /// Photo written out): sized to fit `targetSize` as `contentMode` says (`.zero`: the still's own size), never
    /// larger than the still. With a `placeholderImage`, the handler gets first a degraded Live Photo of the
    /// placeholder's size (`PHLivePhotoInfoIsDegradedKey` true), then the Live Photo once both files are read.
    /// Files that are not one still and one movie give nil and `PHLivePhotoInfoErrorKey`. The handler runs on a queue
    /// of the request's own. (`UIImage` is `PHImage` here.)
    @discardableResult
    public class func request(
        withResourceFileURLs fileURLs: [URL], placeholderImage image: PHImage?, targetSize: CGSize,
        contentMode: PHImageContentMode, resultHandler: @escaping (PHLivePhoto?, [AnyHashable: Any]) -> Void
    ) -> PHLivePhotoRequestID {
        let requestId = fileRequests.withLock { state in
            state.last = state.last == .max ? 1 : state.last + 1
            state.running.insert(state.last)
            return state.last
        }
        let request = LivePhotoFileRequest(
            id: requestId, urls: fileURLs, placeholder: image, targetSize: targetSize, contentMode: contentMode,
            handler: resultHandler)
        DispatchQueue(label: "photos.livephoto.files.\(requestId)").async { request.run() }
        return requestId
    }

    /// Stops a request made from files: its handler gets nil and `PHLivePhotoInfoCancelledKey` true instead of the Live
    /// Photo. A request that has delivered it already is not affected.
    public class func cancelRequest(withRequestID requestID: PHLivePhotoRequestID) {
        // The request's queue sees it gone and says it was cancelled.
        fileRequests.withLock { _ = $0.running.remove(requestID) }
    }

    fileprivate static func isRunning(_ requestId: PHLivePhotoRequestID) -> Bool {
        fileRequests.withLock { $0.running.contains(requestId) }
    }

    /// Whether the request was still running: it is done from now on.
    fileprivate static func finish(_ requestId: PHLivePhotoRequestID) -> Bool {
        fileRequests.withLock { $0.running.remove(requestId) } != nil
    }

    /// The still (its displayed size and resource) and the movie among `urls`: exactly one of each.
    fileprivate static func pair(_ urls: [URL]) throws -> (
        still: (size: CGSize, resource: PHAssetResource), movie: PHAssetResource
    ) {
        var stills: [(size: CGSize, resource: PHAssetResource)] = []
        var movies: [PHAssetResource] = []
        for url in urls {
            // A movie is told by its name first, so that its bytes are not read as an image's.
            let movieType = UTType(filenameExtension: url.pathExtension, conformingTo: .movie)
            if movieType == nil, let image = PHImage(contentsOfFile: url.path) {
                let type = UTType(mimeType: image.mimeType) ?? .image
                stills.append(
                    (image.size, PHAssetResource(file: url, type: .photo, contentType: type, pixelSize: image.size)))
            } else if AVURLAsset(url: url).duration.isValid {
                movies.append(PHAssetResource(file: url, type: .pairedVideo, contentType: movieType ?? .movie))
            } else {
                throw PHPhotosError(
                    .invalidResource, reason: "\(url.path) is neither a photo nor a movie this library reads")
            }
        }
        guard stills.count == 1, movies.count == 1 else {
            throw PHPhotosError(
                .invalidResource,
                reason:
                    "a Live Photo is one photo and one movie; \(stills.count) photos and \(movies.count) movies were given"
            )
        }
        return (stills[0], movies[0])
    }
}

/// One Live Photo request made from files, run on a queue of its own. (A class rather than a tuple captured by the
/// queue's closure and bound apart there, which Swift 6.3.1's ownership verifier rejects.)
private final class LivePhotoFileRequest: @unchecked Sendable {
    // @unchecked: made on the caller's thread and then used by the one queue that runs it.
    let id: PHLivePhotoRequestID
    let urls: [URL]
    let placeholder: PHImage?
    let targetSize: CGSize
    let contentMode: PHImageContentMode
    let handler: (PHLivePhoto?, [AnyHashable: Any]) -> Void

    init(
        id: PHLivePhotoRequestID, urls: [URL], placeholder: PHImage?, targetSize: CGSize,
        contentMode: PHImageContentMode, handler: @escaping (PHLivePhoto?, [AnyHashable: Any]) -> Void
    ) {
        (self.id, self.urls, self.placeholder) = (id, urls, placeholder)
        (self.targetSize, self.contentMode, self.handler) = (targetSize, contentMode, handler)
    }

    func run() {
        if let placeholder, PHLivePhoto.isRunning(id) {
            handler(
                PHLivePhoto(size: fitted(placeholder.size), assetLocalIdentifier: "", resources: []),
                [PHLivePhotoInfoIsDegradedKey: true])
        }
        var livePhoto: PHLivePhoto?
        var failure: PHPhotosError?
        do {
            let (still, movie) = try PHLivePhoto.pair(urls)
            livePhoto = PHLivePhoto(
                size: fitted(still.size), assetLocalIdentifier: "", resources: [still.resource, movie])
        } catch {
            failure = PHPhotosError(error)
        }
        guard PHLivePhoto.finish(id) else {
            return handler(nil, [PHLivePhotoInfoCancelledKey: true, PHLivePhotoInfoIsDegradedKey: false])
        }
        if let failure {
            handler(nil, [PHLivePhotoInfoErrorKey: failure, PHLivePhotoInfoIsDegradedKey: false])
        } else {
            handler(livePhoto, [PHLivePhotoInfoIsDegradedKey: false])
        }
    }

    private func fitted(_ size: CGSize) -> CGSize {
        PHImageManager.size(of: size, fitting: targetSize, contentMode: contentMode)
    }
}
