import Foundation
import PhotoLibrary

/// PhotoKit's `PHLivePhoto`: a photo and the movie shot with it, which are its `PHAssetResource`s.
public final class PHLivePhoto: NSObject, Sendable {
    /// The size it is shown at: the photo fitted to the request's target size.
    public let size: CGSize
    /// The asset it is made of.
    let assetLocalIdentifier: String
    /// Its photo and its movie.
    let resources: [PHAssetResource]

    init(size: CGSize, assetLocalIdentifier: String, resources: [PHAssetResource]) {
        self.size = size
        self.assetLocalIdentifier = assetLocalIdentifier
        self.resources = resources
    }

    public override var description: String {
        "<PHLivePhoto: \(Int(size.width))×\(Int(size.height)) of \(assetLocalIdentifier)>"
    }
}

public typealias PHLivePhotoRequestID = Int32
/// The request id no Live Photo request has.
public let PHLivePhotoRequestIDInvalid: PHLivePhotoRequestID = 0

/// PhotoKit's `PHLivePhotoRequestOptions`.
public final class PHLivePhotoRequestOptions: NSObject, @unchecked Sendable {
    // @unchecked: settings, as in PhotoKit: the caller sets them before the call, which only reads them.
    public var version: PHImageRequestOptionsVersion = .current
    public var deliveryMode: PHImageRequestOptionsDeliveryMode = .opportunistic
    /// Every file is local: there is no network to allow.
    public var isNetworkAccessAllowed = false
    /// Called with 1.0 when the Live Photo is ready.
    public var progressHandler: PHAssetImageProgressHandler?
    /// Accepted; no effect: a Live Photo here is its files, and its still is shown in standard dynamic range.
    public var preferHDR = false

    public override init() {}
}

extension PHImageManager {
    /// PhotoKit's `requestLivePhoto`: the Live Photo of `asset` (a photo with its paired movie), sized to fit
    /// `targetSize` as `contentMode` says, never larger than the photo. An asset that is not a Live Photo gets
    /// `PHPhotosError.requestNotSupportedForAsset`. The handler runs once, on a queue of the request's own.
    @discardableResult
    public func requestLivePhoto(
        for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode,
        options: PHLivePhotoRequestOptions?,
        resultHandler: @escaping (PHLivePhoto?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let requestId = Self.nextRequestId()
        let handler = Unchecked(resultHandler)
        let progress = Unchecked(options?.progressHandler)
        DispatchQueue(label: "photos.livephoto.\(requestId)").async {
            let resources = PHAssetResource.assetResources(for: asset)
            guard asset.mediaSubtypes.contains(.photoLive), resources.contains(where: { $0.type == .pairedVideo })
            else {
                let error = PHPhotosError(
                    .requestNotSupportedForAsset, reason: "asset \(asset.localIdentifier) is not a Live Photo")
                handler.value(nil, [PHImageErrorKey: error, PHImageResultRequestIDKey: requestId])
                return
            }
            let photo = CGSize(width: asset.pixelWidth, height: asset.pixelHeight)
            let live = PHLivePhoto(
                size: Self.size(of: photo, fitting: targetSize, contentMode: contentMode),
                assetLocalIdentifier: asset.localIdentifier,
                resources: resources.filter { $0.type == .photo || $0.type == .pairedVideo })
            if let progress = progress.value {
                var stop = ObjCBool(false)
                progress(1, nil, &stop, nil)
            }
            handler.value(live, [PHImageResultIsDegradedKey: false, PHImageResultRequestIDKey: requestId])
        }
        return requestId
    }

    /// `size` scaled to fit (or fill) `target`, aspect kept, never enlarged; `size` itself for the maximum size.
    static func size(of size: CGSize, fitting target: CGSize, contentMode: PHImageContentMode) -> CGSize {
        guard target.width > 0, target.height > 0, size.width > 0, size.height > 0 else { return size }
        let scales = (target.width / size.width, target.height / size.height)
        let scale = min(1, contentMode == .aspectFill ? max(scales.0, scales.1) : min(scales.0, scales.1))
        return CGSize(width: (size.width * scale).rounded(), height: (size.height * scale).rounded())
    }
}
