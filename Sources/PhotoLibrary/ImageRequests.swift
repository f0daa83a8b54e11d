import Foundation

/// PhotoKit's `PHImageManager` and `PHCachingImageManager`: images of assets, upright and at the size asked for,
/// their original files, and warm-up hints. Image requests share the library's connection: open a second library
/// to request images while another call is in progress.
extension PhotoLibrary {
    /// The final image of an asset: one reply, whatever `options.deliveryMode` says.
    public func requestImage(for assetId: String, options: ImageRequestOptions = ImageRequestOptions())
        async throws(PhotoLibraryError) -> ImageResult
    {
        var final = options
        final.deliveryMode = .highQuality
        do {
            return try await call(ImagesMethod.requestImage, RequestImageParameters(assetId: assetId, options: final))
        } catch {
            throw error.namingTheUnavailableImage
        }
    }

    /// The images of one request as the daemon delivers them: with the opportunistic mode, a degraded image first
    /// when one is at hand, then the final one.
    public func images(for assetId: String, options: ImageRequestOptions = ImageRequestOptions())
        -> AsyncThrowingStream<ImageResult, any Error>
    {
        let replies: AsyncThrowingStream<ImageResult, any Error> =
            stream(ImagesMethod.requestImage, RequestImageParameters(assetId: assetId, options: options))
        return AsyncThrowingStream {
            var iterator = replies.makeAsyncIterator()
            do {
                return try await iterator.next()
            } catch let error as PhotoLibraryError {
                throw error.namingTheUnavailableImage
            }
        }
    }

    /// The asset's file of `version`, unchanged: by default the current version (the edit's rendered file when
    /// the photo has an edit), else the original.
    public func requestImageData(for assetId: String, version: ImageRequestOptions.Version? = nil)
        async throws(PhotoLibraryError) -> ImageData
    {
        try await call(ImagesMethod.requestImageData, RequestImageDataParameters(assetId: assetId, version: version))
    }

    /// What an edit of the photo starts from: the original and its adjustment when this program can resume the
    /// asset's edit (its format is in `formats`), otherwise the current version.
    public func requestContentEditingInput(for assetId: String, canHandle formats: [AdjustmentFormat] = [])
        async throws(PhotoLibraryError) -> ContentEditingInput
    {
        try await call(ImagesMethod.requestContentEditingInput,
                       RequestContentEditingInputParameters(assetId: assetId, canHandle: formats))
    }

    /// Asks the daemon to make, in the background, the images `requestImage` would return for these assets at
    /// `targetSize`, so that they are ready when asked for.
    public func startCaching(_ assetIds: [String], targetSize: ImageSize,
                             contentMode: ImageRequestOptions.ContentMode = .aspectFit) async throws(PhotoLibraryError) {
        let _: EmptyReply = try await call(ImagesMethod.startCaching, StartCachingParameters(
            assetIds: assetIds, targetWidth: targetSize.width, targetHeight: targetSize.height, contentMode: contentMode))
    }

    /// Withdraws the `startCaching` hints for these assets (all when nil) whose images are not made yet.
    public func stopCaching(_ assetIds: [String]? = nil) async throws(PhotoLibraryError) {
        let _: EmptyReply = try await call(ImagesMethod.stopCaching, StopCachingParameters(assetIds: assetIds))
    }
}

extension PhotoLibraryError {
    /// This error, said as "no image of asset X: reason" when the daemon could not make the image.
    var namingTheUnavailableImage: PhotoLibraryError {
        guard let failure = varlinkError, failure.name == PhotolibErrorName.imageUnavailable.qualified(in: .images) else { return self }
        let asset = failure.parameters["assetId"]?.stringValue ?? "?"
        let reason = failure.parameters["reason"]?.stringValue ?? "no reason given"
        return PhotoLibraryError(code: .daemonError, message: "no image of asset \(asset): \(reason)", varlinkError: failure)
    }
}

/// PhotoKit's `PHImageRequestOptions` with the target size.
public struct ImageRequestOptions: Sendable, Hashable {
    public typealias ContentMode = ImageContentMode
    public typealias ResizeMode = ImageResizeMode
    public typealias DeliveryMode = ImageDeliveryMode
    public typealias Version = ImageVersion
    /// A rectangle in 0...1 coordinates of the upright image.
    public typealias Rect = NormalizedCropRect

    /// Nil for the whole image (PhotoKit's PHImageManagerMaximumSize).
    public var targetSize: ImageSize?
    public var contentMode: ContentMode
    public var resizeMode: ResizeMode
    public var deliveryMode: DeliveryMode
    /// The part of the image to show; used with the exact resize mode.
    public var normalizedCropRect: Rect?
    /// Nil: the daemon's default, the current version.
    public var version: Version?

    public init(targetSize: ImageSize? = nil, contentMode: ContentMode = .aspectFit, resizeMode: ResizeMode = .fast,
                deliveryMode: DeliveryMode = .opportunistic, normalizedCropRect: Rect? = nil, version: Version? = nil) {
        self.targetSize = targetSize
        self.contentMode = contentMode
        self.resizeMode = resizeMode
        self.deliveryMode = deliveryMode
        self.normalizedCropRect = normalizedCropRect
        self.version = version
    }
}

/// A width and height in pixels.
public struct ImageSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

extension RequestImageParameters {
    init(assetId: String, options: ImageRequestOptions) {
        self.init(assetId: assetId, targetWidth: options.targetSize?.width, targetHeight: options.targetSize?.height,
                  contentMode: options.contentMode, resizeMode: options.resizeMode, deliveryMode: options.deliveryMode,
                  normalizedCropRect: options.normalizedCropRect, version: options.version)
    }
}
