import Foundation
import PhotoLibrary
import Photos

extension ALAsset {
    /// AssetsLibrary's modified version of a video: the file at `videoPathURL` saved as a new asset (copied), whose URL
    /// the block gets. The library keeps no link from it to this asset (`originalAsset` of the new one is itself).
    public func writeModifiedVideo(
        atPathToSavedPhotosAlbum videoPathURL: URL!, completionBlock: ALAssetsLibraryWriteVideoCompletionBlock!
    ) {
        let write = VideoWrite(file: videoPathURL, refusal: nil, completionBlock: completionBlock)
        DispatchQueue(label: "assetslibrary.video").async { write.run() }
    }

    /// AssetsLibrary's replacement of a video's data. The library keeps edits of photos only, so no asset here is
    /// editable for it (`isEditable` is false for videos): the block gets nil and
    /// `ALAssetsLibraryWriteIncompatibleDataError`, as Apple's does for an asset that is not editable.
    public func setVideoAtPath(_ videoPathURL: URL!, completionBlock: ALAssetsLibraryWriteVideoCompletionBlock!) {
        let reason =
            asset.mediaType == .video
            ? "the library keeps edits of photos only, not of videos"
            : "\(asset.originalFilename) is not a video"
        let write = VideoWrite(
            file: videoPathURL, refusal: PHPhotosError(.changeNotSupported, reason: reason),
            completionBlock: completionBlock)
        DispatchQueue(label: "assetslibrary.video").async { write.run() }
    }
}

/// One video write, run on a queue of its own: the file saved as a new asset, or the refusal, and the block told. (A
/// class, as `ImageEdit` is: a tuple of the URL and the optional block captured by the queue's closure and bound apart
/// there was released once too often, built by Swift 6.3.1.)
private final class VideoWrite: @unchecked Sendable {
    // @unchecked: made on the caller's thread and then used by the one queue that runs it.
    let file: URL?
    let refusal: PHPhotosError?
    let completionBlock: ALAssetsLibraryWriteVideoCompletionBlock?

    init(file: URL?, refusal: PHPhotosError?, completionBlock: ALAssetsLibraryWriteVideoCompletionBlock?) {
        (self.file, self.refusal, self.completionBlock) = (file, refusal, completionBlock)
    }

    func run() {
        var url: URL?
        var failure: Error?
        do {
            if let refusal { throw refusal }
            guard let file else { throw PHPhotosError(.invalidResource, reason: "no video file was given") }
            url = try SavedImage.save(fileAt: file)
        } catch {
            failure = AssetsLibraryError.write(error)
        }
        completionBlock?(url, failure)
    }
}
