import Foundation
import PhotoLibrary
import Photos

public let ALAssetPropertyType = "ALAssetPropertyType"
public let ALAssetPropertyLocation = "ALAssetPropertyLocation"
public let ALAssetPropertyDuration = "ALAssetPropertyDuration"
public let ALAssetPropertyOrientation = "ALAssetPropertyOrientation"
public let ALAssetPropertyDate = "ALAssetPropertyDate"
public let ALAssetPropertyRepresentations = "ALAssetPropertyRepresentations"
public let ALAssetPropertyURLs = "ALAssetPropertyURLs"
public let ALAssetPropertyAssetURL = "ALAssetPropertyAssetURL"
/// The value `value(forProperty:)` gives for a property the asset does not have (the duration of a photo).
public let ALErrorInvalidProperty = "ALErrorInvalidProperty"

public let ALAssetTypePhoto = "ALAssetTypePhoto"
public let ALAssetTypeVideo = "ALAssetTypeVideo"
public let ALAssetTypeUnknown = "ALAssetTypeUnknown"

/// Where an Objective-C style method stores its error: Linux Foundation has no `NSErrorPointer`.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// AssetsLibrary's `ALAssetOrientation`, UIKit's orientation order.
public enum ALAssetOrientation: Int, Sendable {
    case up = 0
    case down = 1
    case left = 2
    case right = 3
    case upMirrored = 4
    case downMirrored = 5
    case leftMirrored = 6
    case rightMirrored = 7

    /// The EXIF orientation value, 1...8.
    var exifValue: Int {
        switch self {
        case .up: 1
        case .upMirrored: 2
        case .down: 3
        case .downMirrored: 4
        case .leftMirrored: 5
        case .right: 6
        case .rightMirrored: 7
        case .left: 8
        }
    }

    /// The orientation of an EXIF orientation value, 1...8.
    init(exif: Int) {
        switch exif {
        case 2: self = .upMirrored
        case 3: self = .down
        case 4: self = .downMirrored
        case 5: self = .leftMirrored
        case 6: self = .right
        case 7: self = .rightMirrored
        case 8: self = .left
        default: self = .up
        }
    }
}

/// AssetsLibrary's `ALAsset`: a photo or video of the library.
public final class ALAsset: NSObject, Sendable {
    let asset: Asset

    init(_ asset: Asset) {
        self.asset = asset
    }

    /// The asset with this id; nil when there is none.
    static func fetch(_ identifier: String) throws -> ALAsset? {
        let asset = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.fetchAssets(
                matching: AssetQuery(
                    ids: [identifier], includeHidden: true,
                    includeAllBurstAssets: true)
            ).assets.first
        }
        return asset.map(ALAsset.init)
    }

    var url: URL { AssetURL.asset(asset.id, filename: asset.originalFilename) }

    /// The value of an `ALAssetProperty…` key: the type string, location (`CLLocation`), duration (NSNumber, or
    /// `ALErrorInvalidProperty` for photos), orientation (NSNumber of `ALAssetOrientation`), date, representations
    /// (type identifiers), URLs (type identifier to URL) or the asset URL.
    public func value(forProperty property: String) -> Any! {
        switch property {
        case ALAssetPropertyType:
            switch asset.mediaType {
            case .image: return ALAssetTypePhoto
            case .video: return ALAssetTypeVideo
            case .audio, .unknown: return ALAssetTypeUnknown
            }
        case ALAssetPropertyLocation:
            return asset.location.map { CLLocation(latitude: $0.latitude, longitude: $0.longitude) }
        case ALAssetPropertyDuration:
            return asset.mediaType == .video ? NSNumber(value: asset.duration) : ALErrorInvalidProperty
        case ALAssetPropertyOrientation:
            return NSNumber(value: ALAssetOrientation(exif: asset.orientation).rawValue)
        case ALAssetPropertyDate:
            return Date(timeIntervalSince1970: (asset.creationDate ?? asset.addedDate).secondsSince1970)
        case ALAssetPropertyRepresentations:
            return [defaultRepresentation().uti()]
        case ALAssetPropertyURLs:
            return [defaultRepresentation().uti(): url]
        case ALAssetPropertyAssetURL:
            return url
        default:
            return nil
        }
    }

    /// A square thumbnail, 150 pixels a side, cut from the middle of the upright image.
    public func thumbnail() -> PHImage! {
        let width = Double(max(asset.pixelWidth, 1)), height = Double(max(asset.pixelHeight, 1))
        let side = min(width, height)
        let crop = NormalizedCropRect(
            x: (width - side) / 2 / width, y: (height - side) / 2 / height,
            width: side / width, height: side / height)
        return Self.image(
            RequestImageParameters(
                assetId: asset.id, targetSize: ImageSize(width: 150, height: 150),
                contentMode: .aspectFill, resizeMode: .exact, normalizedCropRect: crop))
    }

    /// A thumbnail of the whole image that keeps its aspect ratio, fitting 150 pixels.
    public func aspectRatioThumbnail() -> PHImage! {
        Self.image(
            RequestImageParameters(
                assetId: asset.id, targetSize: ImageSize(width: 150, height: 150),
                resizeMode: .exact))
    }

    public func defaultRepresentation() -> ALAssetRepresentation! {
        ALAssetRepresentation(asset)
    }

    /// The representation of this type identifier; nil for another one.
    public func representation(forUTI representationUTI: String) -> ALAssetRepresentation! {
        let representation = ALAssetRepresentation(asset)
        return representation.uti() == representationUTI ? representation : nil
    }

    /// The asset itself: the library keeps edits beside the original, not as assets of their own.
    public var originalAsset: ALAsset! { self }

    /// Whether this program may change the asset's image: a photo, and a read-write grant of the daemon's.
    public var isEditable: Bool {
        asset.mediaType == .image && PHPhotoLibrary.authorizationStatus() == .authorized
    }

    /// Replaces the asset's image with `imageData` (its `metadata` written in): kept as an edit beside the
    /// original (section 9), which the library never changes. The block gets the asset's URL, or the error.
    public func setImageData(
        _ imageData: Data!, metadata: [AnyHashable: Any]!,
        completionBlock: ALAssetsLibraryWriteImageCompletionBlock!
    ) {
        edit(with: imageData, metadata: metadata, completionBlock: completionBlock)
    }

    /// AssetsLibrary's modified version of the asset: here an edit of it, as `setImageData` makes (the library keeps
    /// one asset with its edit rather than a second asset).
    public func writeModifiedImageData(
        toSavedPhotosAlbum imageData: Data!, metadata: [AnyHashable: Any]!,
        completionBlock: ALAssetsLibraryWriteImageCompletionBlock!
    ) {
        edit(with: imageData, metadata: metadata, completionBlock: completionBlock)
    }

    private func edit(
        with imageData: Data?, metadata: [AnyHashable: Any]?, completionBlock: ALAssetsLibraryWriteImageCompletionBlock?
    ) {
        let edit = ImageEdit(
            data: imageData ?? Data(), metadata: metadata, assetId: asset.id, url: url,
            completionBlock: completionBlock)
        DispatchQueue(label: "assetslibrary.edit").async { edit.run() }
    }

    public override var description: String {
        "ALAsset - Type:\(value(forProperty: ALAssetPropertyType) ?? ""), URLs:\(url)"
    }

    /// The image of a one-reply request; nil when the daemon cannot make it.
    static func image(_ request: RequestImageParameters) -> PHImage? {
        let image = try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.requestImage(request)
        }
        return image.map { PHImage($0, transfers: LibraryClient.shared.transfers) }
    }
}

/// One `setImageData` call, run on a queue of its own: the bytes written to a temporary file, sent to the daemon as
/// the asset's edit, and the block told. (A class rather than a tuple captured by the queue's closure and bound apart
/// there: built by Swift 6.3.1 that way, the closure released the URL once too often, as a watchpoint showed.)
private final class ImageEdit: @unchecked Sendable {
    // @unchecked: made on the caller's thread and then used by the one queue that runs it.
    let data: Data
    let metadata: [AnyHashable: Any]?
    let assetId: String
    let url: URL
    let completionBlock: ALAssetsLibraryWriteImageCompletionBlock?

    init(
        data: Data, metadata: [AnyHashable: Any]?, assetId: String, url: URL,
        completionBlock: ALAssetsLibraryWriteImageCompletionBlock?
    ) {
        (self.data, self.metadata, self.assetId, self.url, self.completionBlock) = (
            data, metadata, assetId, url, completionBlock
        )
    }

    func run() {
        var failure: Error?
        do {
            try send()
        } catch {
            failure = AssetsLibraryError.write(error)
        }
        completionBlock?(failure == nil ? url : nil, failure)
    }

    private func send() throws {
        let bytes = SavedImage.writing(metadata, into: data)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "assetslibrary-edit-\(UUID().uuidString).jpg")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let adjustment = Adjustment(formatIdentifier: "io.photolibd.assetslibrary", formatVersion: "1", data: "")
        // The daemon reads this temporary file only when it shares this user's files: else it is sent.
        let transfers = LibraryClient.shared.transfers
        let edit =
            transfers.daemonReads(file.path)
            ? ChangeRequest(op: "editAsset", target: assetId, renderedPath: file.path, adjustment: adjustment)
            : ChangeRequest(
                op: "editAsset", target: assetId, adjustment: adjustment,
                upload: try transfers.upload(contentsOf: file.path))
        _ = try LibraryClient.shared.call(idempotent: false) { library throws(PhotoLibraryError) in
            try await library.performChanges([edit])
        }
    }
}
