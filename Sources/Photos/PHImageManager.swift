import Foundation
import PhotoLibrary
import Synchronization

public typealias PHImageRequestID = Int32
public let PHInvalidImageRequestID: PHImageRequestID = 0
/// The whole image, at its own size.
public let PHImageManagerMaximumSize = CGSize(width: -1, height: -1)

public let PHImageResultIsDegradedKey = "PHImageResultIsDegradedKey"
public let PHImageResultRequestIDKey = "PHImageResultRequestIDKey"
public let PHImageCancelledKey = "PHImageCancelledKey"
public let PHImageErrorKey = "PHImageErrorKey"
public let PHImageResultIsInCloudKey = "PHImageResultIsInCloudKey"
/// The file an image's data came from (a `URL`): the daemon's, which this process may not be able to open.
public let PHImageFileURLKey = "PHImageFileURLKey"

/// PhotoKit's `PHImageContentMode`.
public enum PHImageContentMode: Int, Sendable {
    case aspectFit = 0
    case aspectFill = 1
    public static let `default` = PHImageContentMode.aspectFit
}

/// PhotoKit's `PHImageRequestOptionsDeliveryMode`.
public enum PHImageRequestOptionsDeliveryMode: Int, Sendable {
    case opportunistic = 0
    case highQualityFormat = 1
    case fastFormat = 2
}

/// PhotoKit's `PHImageRequestOptionsResizeMode`.
public enum PHImageRequestOptionsResizeMode: Int, Sendable {
    case none = 0
    case fast = 1
    case exact = 2
}

/// PhotoKit's `PHImageRequestOptionsVersion`.
public enum PHImageRequestOptionsVersion: Int, Sendable {
    case current = 0
    case unadjusted = 1
    case original = 2

    var wireValue: ImageVersion {
        switch self {
        case .current: .current
        case .unadjusted: .unadjusted
        case .original: .original
        }
    }
}

public typealias PHAssetImageProgressHandler =
    (Double, Error?, UnsafeMutablePointer<ObjCBool>, [AnyHashable: Any]?) -> Void

/// PhotoKit's `PHImageRequestOptions`.
public final class PHImageRequestOptions: NSObject, @unchecked Sendable {
    // @unchecked: settings, as in PhotoKit: the caller sets them before the call, which only reads them.
    public var version: PHImageRequestOptionsVersion = .current
    public var deliveryMode: PHImageRequestOptionsDeliveryMode = .opportunistic
    public var resizeMode: PHImageRequestOptionsResizeMode = .fast
    /// The part of the image to return, in 0...1 of the upright image; used with `.exact`.
    public var normalizedCropRect: CGRect = .zero
    /// Images are local: there is no network to allow.
    public var isNetworkAccessAllowed = false
    /// The handler has run, once, when the request call returns (`.opportunistic` then gives the final image only).
    public var isSynchronous = false
    /// Called with 1.0 when the image is ready (the daemon reports no finer progress).
    public var progressHandler: PHAssetImageProgressHandler?
    public var allowSecondaryDegradedImage = false
    /// Accepted; no effect: the library renders every image in standard dynamic range (8-bit sRGB).
    public var preferHDR = false

    public override init() {}
}

/// PhotoKit's `PHImageManager`: images of assets, upright, at the size asked for, from the daemon's cache.
public class PHImageManager: NSObject, @unchecked Sendable {
    // @unchecked: an open class cannot be checked; its only state is `requests`, behind its lock.
    private static let defaultManager = PHImageManager()
    private static let requestIds = Mutex<PHImageRequestID>(0)

    /// The requests that `cancelImageRequest` can still stop.
    struct Requests {
        /// The asynchronous requests not finished yet.
        var running: [PHImageRequestID: Task<Void, Never>] = [:]
        /// The data requests whose bytes are on their way.
        var dataTransfers: [PHImageRequestID: TransferCancellation] = [:]
    }

    let requests = Mutex(Requests())

    public override init() {}

    public class func `default`() -> PHImageManager { defaultManager }

    /// Requests an image of `asset`, delivered as the daemon applies the options' delivery mode: `.opportunistic`
    /// calls `resultHandler` first with a degraded image (`PHImageResultIsDegradedKey` true) when one is at hand and
    /// then with the final one, or only with the final one when `isSynchronous`; `.highQualityFormat` once with the
    /// final image (a RAW file's from its sensor data); `.fastFormat` once with the image at hand.
    /// Handlers run on a queue of the request's own, in order.
    @discardableResult
    public func requestImage(
        for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode,
        options: PHImageRequestOptions?, resultHandler: @escaping (PHImage?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let options = options ?? PHImageRequestOptions()
        let requestId = Self.nextRequestId()
        let request = RequestImageParameters(
            assetId: asset.localIdentifier,
            targetSize: targetSize.width < 0 || targetSize.height < 0
                ? nil : ImageSize(width: Int(targetSize.width.rounded()), height: Int(targetSize.height.rounded())),
            contentMode: contentMode == .aspectFill ? .aspectFill : .aspectFit,
            resizeMode: options.resizeMode.wireValue,
            deliveryMode: options.deliveryMode.wireValue,
            normalizedCropRect: options.normalizedCropRect.isEmpty
                ? nil : NormalizedCropRect(options.normalizedCropRect),
            version: options.version == .current ? nil : options.version.wireValue)
        let handler = Unchecked(resultHandler)
        let progress = Unchecked(options.progressHandler)

        if options.isSynchronous {
            let outcome = Result {
                try LibraryClient.shared.call { library throws(PhotoLibraryError) in
                    try await library.requestImage(request)
                }
            }
            Self.finish(requestId, outcome, progress: progress.value, handler: resultHandler)
            return requestId
        }

        let handlers = DispatchQueue(label: "photos.image.\(requestId)")
        let task = ClientExecutor.start { [self] in
            defer { _ = requests.withLock { $0.running.removeValue(forKey: requestId) } }
            do {
                // A connection of the few image requests share, not one of its own (500 thumbnails, 2 sockets). One
                // that broke before its first reply (the daemon restarted since it was opened) is tried once more.
                var delivered = false
                for attempt in 1...2 {
                    do {
                        try await ImageConnections.shared.withConnection { library in
                            for try await image in library.images(request) {
                                if Task.isCancelled { break }
                                delivered = true
                                let result = Unchecked(Result<ImageResult, any Error>.success(image))
                                handlers.async {
                                    Self.finish(
                                        requestId, result.value, progress: progress.value, handler: handler.value)
                                }
                            }
                        }
                        break
                    } catch let error as PhotoLibraryError
                        where error.code == .connectionFailed && !delivered && attempt == 1
                    {
                        continue
                    }
                }
            } catch {
                if !Task.isCancelled {
                    let result = Unchecked(Result<ImageResult, any Error>.failure(error))
                    handlers.async {
                        Self.finish(requestId, result.value, progress: progress.value, handler: handler.value)
                    }
                }
            }
            if Task.isCancelled {
                handlers.async {
                    handler.value(nil, [PHImageCancelledKey: true, PHImageResultRequestIDKey: requestId])
                }
            }
        }
        requests.withLock { $0.running[requestId] = task }
        return requestId
    }

    /// Cancels a request whose final image (or data) has not been delivered; its handler gets `PHImageCancelledKey`.
    public func cancelImageRequest(_ requestID: PHImageRequestID) {
        let (task, transfer) = requests.withLock { ($0.running[requestID], $0.dataTransfers[requestID]) }
        task?.cancel()
        transfer?.cancel()
    }

    static func nextRequestId() -> PHImageRequestID {
        requestIds.withLock { id in
            id = id == .max ? 1 : id + 1
            return id
        }
    }

    /// Calls the handler with one delivered image, or with the error.
    private static func finish(
        _ requestId: PHImageRequestID, _ outcome: Result<ImageResult, any Error>,
        progress: PHAssetImageProgressHandler?, handler: (PHImage?, [AnyHashable: Any]?) -> Void
    ) {
        switch outcome {
        case .success(let image):
            if !image.isDegraded, let progress {
                var stop = ObjCBool(false)
                progress(1, nil, &stop, nil)
            }
            let info: [AnyHashable: Any] = [
                PHImageResultIsDegradedKey: image.isDegraded, PHImageResultRequestIDKey: requestId,
                PHImageResultIsInCloudKey: false,
            ]
            handler(PHImage(image, transfers: LibraryClient.shared.transfers), info)
        case .failure(let error):
            handler(nil, [PHImageErrorKey: PHPhotosError(error), PHImageResultRequestIDKey: requestId])
        }
    }
}

/// PhotoKit's `PHCachingImageManager`: an image manager that asks the daemon to prepare images ahead of use.
public final class PHCachingImageManager: PHImageManager, @unchecked Sendable {
    // @unchecked: a subclass cannot be checked; `allowsCachingHighQualityImages` is a setting, set before use.
    public var allowsCachingHighQualityImages = true

    public override init() {}

    /// Asks the daemon to make these assets' images at `targetSize` in the background.
    public func startCachingImages(
        for assets: [PHAsset], targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?
    ) {
        guard targetSize.width > 0, targetSize.height > 0 else { return }
        let ids = assets.map(\.localIdentifier)
        let size = ImageSize(width: Int(targetSize.width.rounded()), height: Int(targetSize.height.rounded()))
        let mode: ImageContentMode = contentMode == .aspectFill ? .aspectFill : .aspectFit
        Self.hint { library throws(PhotoLibraryError) in
            try await library.startCaching(ids, targetSize: size, contentMode: mode)
        }
    }

    /// Withdraws the hints for these assets whose images are not made yet.
    public func stopCachingImages(
        for assets: [PHAsset], targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions?
    ) {
        let ids = assets.map(\.localIdentifier)
        Self.hint { library throws(PhotoLibraryError) in try await library.stopCaching(ids) }
    }

    public func stopCachingImagesForAllAssets() {
        Self.hint { library throws(PhotoLibraryError) in try await library.stopCaching(nil) }
    }

    /// Sends a caching hint without waiting; a hint that fails only means the images are made when asked for.
    private static func hint(_ call: @escaping @Sendable (PhotoLibrary) async throws(PhotoLibraryError) -> Void) {
        ClientExecutor.start {
            do {
                try await LibraryClient.shared.callAsync(call)
            } catch {
                PhotosLog.report("a caching hint was not taken", error)
            }
        }
    }
}

extension PHImageRequestOptionsResizeMode {
    var wireValue: ImageResizeMode {
        switch self {
        case .none: .none
        case .fast: .fast
        case .exact: .exact
        }
    }
}

extension PHImageRequestOptionsDeliveryMode {
    var wireValue: ImageDeliveryMode {
        switch self {
        case .opportunistic: .opportunistic
        case .highQualityFormat: .highQuality
        case .fastFormat: .fast
        }
    }
}

extension NormalizedCropRect {
    init(_ rect: CGRect) {
        self.init(
            x: Double(rect.origin.x), y: Double(rect.origin.y), width: Double(rect.width), height: Double(rect.height))
    }
}

/// Uniform type identifiers, which PhotoKit reports where the daemon reports MIME types.
package enum UniformType {
    /// The type of a MIME type the daemon reports; an unknown one is an image or data.
    package static func type(forMIMEType mimeType: String) -> UTType {
        UTType(mimeType: mimeType) ?? (mimeType.hasPrefix("image/") ? .image : .data)
    }

    package static func identifier(forMIMEType mimeType: String) -> String {
        type(forMIMEType: mimeType).identifier
    }
}
