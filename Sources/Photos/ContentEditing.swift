import AVFoundation
import Foundation
import PhotoLibrary
import Synchronization

public typealias PHContentEditingInputRequestID = Int

/// In a content-editing input's info: true when the asset's file would have to come from iCloud (never, here).
public let PHContentEditingInputResultIsInCloudKey = "PHContentEditingInputResultIsInCloudKey"
/// In a content-editing input's info: true when the request was cancelled.
public let PHContentEditingInputCancelledKey = "PHContentEditingInputCancelledKey"
/// In a content-editing input's info: the `PHPhotosError` that kept the input from being made.
public let PHContentEditingInputErrorKey = "PHContentEditingInputErrorKey"

/// PhotoKit's `PHAdjustmentData`: how an edit was made, in an app's own format.
public final class PHAdjustmentData: NSObject, Sendable {
    public let formatIdentifier: String
    public let formatVersion: String
    public let data: Data

    public init(formatIdentifier: String, formatVersion: String, data: Data) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }

    convenience init?(_ adjustment: Adjustment?) {
        guard let adjustment, let data = Data(base64Encoded: adjustment.data) else { return nil }
        self.init(formatIdentifier: adjustment.formatIdentifier, formatVersion: adjustment.formatVersion, data: data)
    }

    var wireValue: Adjustment {
        Adjustment(formatIdentifier: formatIdentifier, formatVersion: formatVersion, data: data.base64EncodedString())
    }
}

/// PhotoKit's `PHContentEditingInputRequestOptions`.
public final class PHContentEditingInputRequestOptions: NSObject, @unchecked Sendable {
    // @unchecked: settings, as in PhotoKit: the caller sets them before the call, which only reads them.
    /// Whether this program can resume an edit made in this format; if so it gets the original and the adjustment
    /// data, otherwise the edited image.
    public var canHandleAdjustmentData: (PHAdjustmentData) -> Bool = { _ in false }
    public var isNetworkAccessAllowed = false
    public var progressHandler: ((Double, UnsafeMutablePointer<ObjCBool>) -> Void)?

    public override init() {}
}

/// PhotoKit's `PHContentEditingInput`: the image to edit and, when resuming an edit, how it was made.
public final class PHContentEditingInput: NSObject, Sendable {
    public let mediaType: PHAssetMediaType
    public let mediaSubtypes: PHAssetMediaSubtype
    public let creationDate: Date?
    public let location: PHLocation?
    public let uniformTypeIdentifier: String?
    /// The type of the file at `fullSizeImageURL` (`.jpeg`, `.heic`, a RAW type).
    public let contentType: UTType?
    /// Set when the edit is resumed from the original; nil when `fullSizeImageURL` is the edited image.
    public let adjustmentData: PHAdjustmentData?
    public let fullSizeImageURL: URL?
    /// The EXIF orientation of the file at `fullSizeImageURL`.
    public let fullSizeImageOrientation: Int32
    /// How the asset is shown: `.image`, `.imageAnimated` or `.livePhoto` (only photos are edited here).
    public let playbackStyle: PHAsset.PlaybackStyle
    /// A Live Photo's photo and movie; nil for other assets.
    public let livePhoto: PHLivePhoto?
    /// The movie to edit: always nil here, where only photos are edited (Apple's is nil for photos too).
    public var audiovisualAsset: AVAsset? { nil }
    let assetIdentifier: String
    /// The version `fullSizeImageURL` is of: the original when the edit is resumed, else the current one.
    private let version: ImageVersion

    /// The image at `fullSizeImageURL` turned upright and fitted to 1920 pixels, the size a screen shows, made by the
    /// daemon when first asked for (one call each time); nil when it cannot be made.
    public var displaySizeImage: PHImage? {
        let request = RequestImageParameters(
            assetId: assetIdentifier, targetSize: ImageSize(width: 1920, height: 1920), resizeMode: .exact,
            deliveryMode: .highQuality, version: version)
        let image = try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.requestImage(request)
        }
        return image.map { PHImage($0, transfers: LibraryClient.shared.transfers) }
    }

    init(asset: PHAsset, input: ContentEditingInput, livePhoto: PHLivePhoto?) {
        mediaType = asset.mediaType
        mediaSubtypes = asset.mediaSubtypes
        creationDate = asset.creationDate
        location = asset.location
        contentType = UniformType.type(forMIMEType: input.mimeType)
        uniformTypeIdentifier = contentType?.identifier
        adjustmentData = PHAdjustmentData(input.adjustment)
        fullSizeImageURL = URL(fileURLWithPath: input.fullSizeImagePath)
        fullSizeImageOrientation = Int32(input.orientation)
        playbackStyle = asset.playbackStyle
        self.livePhoto = livePhoto
        assetIdentifier = asset.localIdentifier
        version = input.adjustment == nil ? .current : .unadjusted
    }
}

/// PhotoKit's `PHContentEditingOutput`: an edit to commit with `PHAssetChangeRequest.contentEditingOutput`.
public final class PHContentEditingOutput: NSObject, @unchecked Sendable {
    // @unchecked: the program sets `adjustmentData` and picks the rendered file's type before it hands the output to
    // a change request.
    /// Required before the commit: how the edit was made.
    public var adjustmentData: PHAdjustmentData?
    /// Where to write the edited image (JPEG) before committing; a file in this program's temporary directory.
    public let renderedContentURL: URL
    /// The type `renderedContentURL` is for: `.jpeg` for a photo, nil for what the library does not edit.
    public let defaultRenderedContentType: UTType?
    /// The types a rendered photo may be written in (the daemon keeps JPEG, HEIC and PNG edits); empty but for photos.
    public let supportedRenderedContentTypes: [UTType]
    /// The file the edit is committed from: `renderedContentURL`, or the last one `renderedContentURL(for:)` gave.
    private var renderedFile: URL

    public convenience init(contentEditingInput: PHContentEditingInput) {
        self.init(isPhoto: contentEditingInput.mediaType == .image)
    }

    /// An output for an asset the change block creates, to set on its creation request's `contentEditingOutput`: the
    /// new asset is its file with this edit beside it. Photos only, as edits here are.
    public convenience init(placeholderForCreatedAsset: PHObjectPlaceholder) {
        self.init(isPhoto: true)
    }

    private init(isPhoto: Bool) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photos-edits", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        renderedContentURL = directory.appendingPathComponent("\(UUID().uuidString).JPG")
        renderedFile = renderedContentURL
        defaultRenderedContentType = isPhoto ? .jpeg : nil
        supportedRenderedContentTypes = isPhoto ? [.jpeg, .heic, .png] : []
    }

    /// Where to write the edited content in `type`, one of `supportedRenderedContentTypes`; the edit is committed
    /// from the URL given last.
    ///
    /// - Throws: `PHPhotosError.invalidParameter` for a type the library does not keep edits in.
    public func renderedContentURL(for type: UTType) throws -> URL {
        guard supportedRenderedContentTypes.contains(type), let fileExtension = type.preferredFilenameExtension else {
            throw PHPhotosError(.invalidParameter, reason: "an edit is not kept as \(type)")
        }
        renderedFile = renderedContentURL.deletingPathExtension().appendingPathExtension(fileExtension)
        return renderedFile
    }

    /// The `editAsset` change for `target`: the rendered file by path when the daemon reads this process's files,
    /// else sent (`Import.Upload`).
    func editRequest(for target: String, transfers: FileTransfers) throws -> ChangeRequest {
        let path = renderedFile.path
        guard !transfers.daemonReads(path) else {
            return ChangeRequest(
                op: "editAsset", target: target, renderedPath: path, adjustment: adjustmentData?.wireValue)
        }
        return ChangeRequest(
            op: "editAsset", target: target, adjustment: adjustmentData?.wireValue,
            upload: try transfers.upload(contentsOf: path))
    }
}

/// The running `requestContentEditingInput` calls, for cancellation.
enum ContentEditingRequests {
    private static let state = Mutex<(next: Int, cancelled: Set<Int>)>((0, []))

    static func start(
        for asset: PHAsset, options: PHContentEditingInputRequestOptions,
        completionHandler: @escaping (PHContentEditingInput?, [AnyHashable: Any]) -> Void
    ) -> PHContentEditingInputRequestID {
        let requestId = state.withLock { state in
            state.next += 1
            return state.next
        }
        let request = Unchecked(
            ContentEditingRequest(asset: asset, options: options, completionHandler: completionHandler))
        DispatchQueue(label: "photos.editing.\(requestId)").async {
            request.value.run(cancelled: { state.withLock { $0.cancelled.remove(requestId) != nil } })
        }
        return requestId
    }

    static func cancel(_ requestId: PHContentEditingInputRequestID) {
        _ = state.withLock { $0.cancelled.insert(requestId) }
    }

}

/// One `requestContentEditingInput` call.
private struct ContentEditingRequest {
    let asset: PHAsset
    let options: PHContentEditingInputRequestOptions
    let completionHandler: (PHContentEditingInput?, [AnyHashable: Any]) -> Void

    /// Reads the input and calls the handler, unless the request was cancelled meanwhile.
    func run(cancelled: () -> Bool) {
        let input: PHContentEditingInput
        do {
            input = try makeInput()
        } catch {
            if cancelled() { return completionHandler(nil, [PHContentEditingInputCancelledKey: true]) }
            return completionHandler(nil, [PHContentEditingInputErrorKey: PHPhotosError(error)])
        }
        if cancelled() { return completionHandler(nil, [PHContentEditingInputCancelledKey: true]) }
        completionHandler(input, [:])
    }

    /// The original and the adjustment when the program can resume the asset's edit, else the current version.
    private func makeInput() throws -> PHContentEditingInput {
        let assetId = asset.localIdentifier
        var input = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.requestContentEditingInput(for: assetId)
        }
        if let adjustment = input.currentAdjustment, let data = PHAdjustmentData(adjustment),
            options.canHandleAdjustmentData(data)
        {
            let format = AdjustmentFormat(
                formatIdentifier: adjustment.formatIdentifier, formatVersion: adjustment.formatVersion)
            input = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
                try await library.requestContentEditingInput(for: assetId, canHandle: [format])
            }
        }
        // A path this program can open: the daemon's file, or a copy of it when the program may not open that.
        input.fullSizeImagePath = try ReadableCopies.readable(
            input.fullSizeImagePath, name: "\(assetId)-edit-\(input.baseVersion)")
        return PHContentEditingInput(asset: asset, input: input, livePhoto: livePhoto())
    }

    /// A Live Photo's photo and movie, at the photo's size; nil for other assets.
    private func livePhoto() -> PHLivePhoto? {
        guard asset.mediaSubtypes.contains(.photoLive) else { return nil }
        let resources = PHAssetResource.assetResources(for: asset).filter {
            $0.type == .photo || $0.type == .pairedVideo
        }
        guard resources.contains(where: { $0.type == .pairedVideo }) else { return nil }
        return PHLivePhoto(
            size: CGSize(width: asset.pixelWidth, height: asset.pixelHeight),
            assetLocalIdentifier: asset.localIdentifier,
            resources: resources)
    }
}
