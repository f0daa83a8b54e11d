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
            return try await call(ImageMethod.requestImage, RequestImageParameters(assetId: assetId, options: final))
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
            stream(ImageMethod.requestImage, RequestImageParameters(assetId: assetId, options: options))
        return AsyncThrowingStream {
            var iterator = replies.makeAsyncIterator()
            do {
                return try await iterator.next()
            } catch let error as PhotoLibraryError {
                throw error.namingTheUnavailableImage
            }
        }
    }

    /// The asset's original file, unchanged (or the file of `version`).
    public func requestImageData(for assetId: String, version: ImageRequestOptions.Version? = nil)
        async throws(PhotoLibraryError) -> ImageData
    {
        try await call(ImageMethod.requestImageData, RequestImageDataParameters(assetId: assetId, version: version))
    }

    /// Asks the daemon to make, in the background, the images `requestImage` would return for these assets at
    /// `targetSize`, so that they are ready when asked for.
    public func startCaching(_ assetIds: [String], targetSize: ImageSize,
                             contentMode: ImageRequestOptions.ContentMode = .aspectFit) async throws(PhotoLibraryError) {
        let _: NoImageReply = try await call(ImageMethod.startCaching, StartCachingParameters(
            assetIds: assetIds, targetWidth: targetSize.width, targetHeight: targetSize.height, contentMode: contentMode))
    }

    /// Withdraws the `startCaching` hints for these assets (all when nil) whose images are not made yet.
    public func stopCaching(_ assetIds: [String]? = nil) async throws(PhotoLibraryError) {
        let _: NoImageReply = try await call(ImageMethod.stopCaching, StopCachingParameters(assetIds: assetIds))
    }
}

extension PhotoLibraryError {
    /// This error, said as "no image of asset X: reason" when the daemon could not make the image.
    var namingTheUnavailableImage: PhotoLibraryError {
        guard let failure = varlinkError, failure.name == "io.photolibd.Images.ImageUnavailable" else { return self }
        let asset = failure.parameters["assetId"]?.stringValue ?? "?"
        let reason = failure.parameters["reason"]?.stringValue ?? "no reason given"
        return PhotoLibraryError(code: .daemonError, message: "no image of asset \(asset): \(reason)", varlinkError: failure)
    }
}

/// PhotoKit's `PHImageRequestOptions` with the target size.
public struct ImageRequestOptions: Sendable, Hashable {
    public enum ContentMode: String, Sendable, Hashable, Codable, CaseIterable {
        case aspectFit, aspectFill
    }

    public enum ResizeMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Close to the target size and never smaller (the default).
        case fast
        /// Fit: the image fits inside the target; fill: it covers the target.
        case exact
        /// The image's own size.
        case none
    }

    public enum DeliveryMode: String, Sendable, Hashable, Codable, CaseIterable {
        case opportunistic, highQuality, fast
    }

    /// Which version of an edited asset: the edit (`current`), the original's pixels, or the original file.
    public enum Version: String, Sendable, Hashable, Codable, CaseIterable {
        case current, unadjusted, original
    }

    /// A rectangle in 0...1 coordinates of the upright image.
    public struct Rect: Sendable, Hashable, Codable {
        public var x, y, width, height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

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

/// One image delivered for a request: a file to read, upright.
public struct ImageResult: Sendable, Hashable, Decodable {
    /// The same for every image of one request.
    public var requestId: String
    public var path: String
    public var width: Int
    public var height: Int
    public var mimeType: String
    /// Whether this is a stand-in delivered before the final image.
    public var isDegraded: Bool
}

/// An asset's original file.
public struct ImageData: Sendable, Hashable, Decodable {
    public var path: String
    public var mimeType: String
    /// The EXIF orientation of the file, 1...8.
    public var orientation: Int
    public var fileSize: Int
    public var originalFilename: String
}

private enum ImageMethod {
    static let requestImage = "io.photolibd.Images.RequestImage"
    static let requestImageData = "io.photolibd.Images.RequestImageData"
    static let startCaching = "io.photolibd.Images.StartCaching"
    static let stopCaching = "io.photolibd.Images.StopCaching"
}

private struct NoImageReply: Decodable, Sendable {}

private struct RequestImageParameters: Encodable, Sendable {
    var assetId: String
    var targetWidth: Int?
    var targetHeight: Int?
    var contentMode: ImageRequestOptions.ContentMode
    var resizeMode: ImageRequestOptions.ResizeMode
    var deliveryMode: ImageRequestOptions.DeliveryMode
    var normalizedCropRect: ImageRequestOptions.Rect?
    var version: ImageRequestOptions.Version?

    init(assetId: String, options: ImageRequestOptions) {
        self.assetId = assetId
        targetWidth = options.targetSize?.width
        targetHeight = options.targetSize?.height
        contentMode = options.contentMode
        resizeMode = options.resizeMode
        deliveryMode = options.deliveryMode
        normalizedCropRect = options.normalizedCropRect
        version = options.version
    }
}

private struct RequestImageDataParameters: Encodable, Sendable {
    var assetId: String
    var version: ImageRequestOptions.Version?
}

private struct StartCachingParameters: Encodable, Sendable {
    var assetIds: [String]
    var targetWidth: Int
    var targetHeight: Int
    var contentMode: ImageRequestOptions.ContentMode
}

private struct StopCachingParameters: Encodable, Sendable {
    var assetIds: [String]?
}
