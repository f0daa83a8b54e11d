import Foundation

/// PhotoKit's `PHImageManager` and `PHCachingImageManager`: images of assets, upright and at the size asked for,
/// their original files, and warm-up hints. Image requests share the library's connection: open a second library
/// to request images while another call is in progress.
extension PhotoLibrary {
    /// The image `request` asks for, in one reply, as the daemon delivers it: the final image in the opportunistic
    /// and high-quality modes (made from a RAW file's sensor data only in the latter), the image at hand in the fast one.
    public func requestImage(_ request: RequestImageParameters) async throws(PhotoLibraryError) -> ImageResult {
        do {
            return try await call(ImagesMethod.requestImage, request)
        } catch {
            throw error.namingTheUnavailableImage
        }
    }

    /// The images of `request` as the daemon delivers them: with the opportunistic mode, a degraded image first
    /// when one is at hand, then the final one.
    public func images(_ request: RequestImageParameters) -> AsyncThrowingStream<ImageResult, any Error> {
        let replies: AsyncThrowingStream<ImageResult, any Error> = stream(ImagesMethod.requestImage, request)
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
    public func requestImageData(for assetId: String, version: ImageVersion? = nil)
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
                             contentMode: ImageContentMode = .aspectFit) async throws(PhotoLibraryError) {
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
