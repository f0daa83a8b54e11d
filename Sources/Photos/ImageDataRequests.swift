import Foundation
import PhotoLibrary

/// The bytes of an asset's file: `requestImageDataAndOrientation` and the deprecated `requestImageData`.
extension PHImageManager {
    /// PhotoKit's `requestImageDataAndOrientation`: the bytes of the file of `options.version` (the current one by
    /// default: the edit's, else the original), its type identifier and EXIF orientation; the info has the file's
    /// URL under `"PHImageFileURLKey"`.
    @discardableResult
    public func requestImageDataAndOrientation(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping (Data?, String?, CGImagePropertyOrientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let handler = Unchecked(resultHandler)
        return requestData(of: asset, options: options) { data, uti, orientation, info in
            handler.value(data, uti, CGImagePropertyOrientation(rawValue: UInt32(orientation)) ?? .up, info)
        }
    }

    /// PhotoKit's `requestImageData`: as `requestImageDataAndOrientation`, with the orientation as UIKit's.
    @available(*, deprecated, renamed: "requestImageDataAndOrientation(for:options:resultHandler:)")
    @discardableResult
    public func requestImageData(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping (Data?, String?, PHImage.Orientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let handler = Unchecked(resultHandler)
        return requestData(of: asset, options: options) { data, uti, orientation, info in
            handler.value(data, uti, PHImage.Orientation(exifOrientation: orientation), info)
        }
    }

    /// Reads the asset's file (through the socket when this process may not open it) and calls `handler` with its
    /// bytes, type identifier, EXIF orientation and info, or with the error: at once with `isSynchronous`, else on a
    /// queue of the request's own.
    private func requestData(
        of asset: PHAsset, options: PHImageRequestOptions?,
        handler: @escaping (Data?, String?, Int, [AnyHashable: Any]) -> Void
    ) -> PHImageRequestID {
        let requestId = Self.nextRequestId()
        let assetId = asset.localIdentifier
        let version = options.map { $0.version == .current ? nil : $0.version.wireValue } ?? nil
        let cancellation = TransferCancellation()
        requests.withLock { $0.dataTransfers[requestId] = cancellation }
        let deliver = Unchecked { [self] in
            defer { _ = requests.withLock { $0.dataTransfers.removeValue(forKey: requestId) } }
            do {
                let file = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
                    try await library.requestImageData(for: assetId, version: version)
                }
                let data = try LibraryClient.shared.transfers.read(file.path, cancellation: cancellation)
                handler(
                    data, UniformType.identifier(forMIMEType: file.mimeType), file.orientation,
                    [
                        PHImageResultRequestIDKey: requestId, PHImageFileURLKey: URL(fileURLWithPath: file.path),
                        PHImageResultIsDegradedKey: false, PHImageResultIsInCloudKey: false,
                    ])
            } catch  where cancellation.isCancelled {
                handler(nil, nil, 1, [PHImageCancelledKey: true, PHImageResultRequestIDKey: requestId])
            } catch {
                handler(nil, nil, 1, [PHImageErrorKey: PHPhotosError(error), PHImageResultRequestIDKey: requestId])
            }
        }
        if options?.isSynchronous == true {
            deliver.value()
        } else {
            DispatchQueue(label: "photos.imagedata.\(requestId)").async { deliver.value() }
        }
        return requestId
    }
}
