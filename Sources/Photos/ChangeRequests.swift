import Foundation
import PhotoLibrary

/// PhotoKit's `PHChangeRequest`.
public class PHChangeRequest: NSObject, @unchecked Sendable {
    // @unchecked: used inside its change block only, on the thread running the block (as in PhotoKit).
    /// The block this request belongs to; nil when made outside of one (then it does nothing).
    let block: ChangeBlock?

    init(_ name: String) {
        block = ChangeBlock.required(for: name)
    }

    func append(_ request: ChangeRequest) {
        block?.append(request)
    }
}

/// PhotoKit's `PHAssetChangeRequest`: creates, edits or deletes assets inside a change block. Its properties start
/// from the asset's current values (`request.isFavorite = !request.isFavorite` toggles).
public class PHAssetChangeRequest: PHChangeRequest, @unchecked Sendable {
    // @unchecked: used inside its change block only, on the thread running the block (as in PhotoKit).
    /// The asset's identifier; the chosen one of a created asset.
    let target: String
    /// The asset as the program had it; nil for a created one.
    let asset: PHAsset?
    private var favorite: Bool?
    private var hidden: Bool?
    private var date: Date??
    private var place: PHLocation??
    private var output: PHContentEditingOutput?
    /// The stars and caption the request set (`PhotographerMetadata.swift`); nil when it set none.
    var newRating: PHAsset.Rating?
    var newCaption: String??

    /// The placeholder of the asset this request creates; nil for a request that edits an existing asset.
    public let placeholderForCreatedAsset: PHObjectPlaceholder?

    /// A request to change `asset`.
    public init(for asset: PHAsset) {
        target = asset.localIdentifier
        self.asset = asset
        placeholderForCreatedAsset = nil
        super.init("PHAssetChangeRequest(for:)")
    }

    /// A request that creates an asset from `files` (none yet for a `PHAssetCreationRequest`).
    required init(creating files: [NewAssetFileSource], name: String) {
        let placeholder =
            ChangeBlock.current?.makePlaceholder("asset")
            ?? PHObjectPlaceholder(placeholder: "@asset", identifier: UUID().uuidString.lowercased())
        target = placeholder.localIdentifier
        asset = nil
        placeholderForCreatedAsset = placeholder
        super.init(name)
        if !files.isEmpty { block?.append(.createAsset(placeholder: placeholder, files: files)) }
    }

    /// Creates an asset from an image file (JPEG, PNG, HEIC, …), copied into the library.
    public class func creationRequestForAssetFromImage(atFileURL fileURL: URL) -> Self? {
        Self(
            creating: [NewAssetFileSource(bytes: .file(fileURL))], name: "creationRequestForAssetFromImage(atFileURL:)")
    }

    /// Creates an asset from a video file, copied into the library.
    public class func creationRequestForAssetFromVideo(atFileURL fileURL: URL) -> Self? {
        Self(
            creating: [NewAssetFileSource(bytes: .file(fileURL))], name: "creationRequestForAssetFromVideo(atFileURL:)")
    }

    /// Creates an asset from an image (UIKit's `UIImage`: a `PHImage` here): its encoded bytes, sent to the daemon.
    public class func creationRequestForAsset(from image: PHImage) -> Self {
        let bytes: NewAssetFileSource.Bytes
        if let url = image.fileURL, FileManager.default.isReadableFile(atPath: url.path) {
            bytes = .file(url)
        } else {
            bytes = .data((try? image.data()) ?? Data())
        }
        return Self(
            creating: [
                NewAssetFileSource(
                    bytes: bytes, uniformTypeIdentifier: UniformType.identifier(forMIMEType: image.mimeType))
            ],
            name: "creationRequestForAsset(from:)")
    }

    public var isFavorite: Bool {
        get { favorite ?? asset?.isFavorite ?? false }
        set { append(ChangeRequest(op: "updateAsset", target: target, isFavorite: newValue)); favorite = newValue }
    }

    public var isHidden: Bool {
        get { hidden ?? asset?.isHidden ?? false }
        set { append(ChangeRequest(op: "updateAsset", target: target, isHidden: newValue)); hidden = newValue }
    }

    public var creationDate: Date? {
        get { date ?? asset?.creationDate }
        set {
            append(
                ChangeRequest(
                    op: "updateAsset", target: target,
                    creationDate: newValue.map { .set(Timestamp($0)) } ?? .cleared))
            date = .some(newValue)
        }
    }

    public var location: PHLocation? {
        get { place ?? asset?.location }
        set {
            append(
                ChangeRequest(
                    op: "updateAsset", target: target, location: newValue.map { .set($0.wireValue) } ?? .cleared))
            place = .some(newValue)
        }
    }

    /// Setting it commits the edit: the rendered file and its adjustment data (section 9 of the contract).
    public var contentEditingOutput: PHContentEditingOutput? {
        get { output }
        set {
            output = newValue
            guard let newValue else { return }
            block?.append(.editAsset(target: target, output: newValue))
        }
    }

    /// Reverts the asset to its original: the edit is dropped.
    public func revertAssetContentToOriginal() {
        append(ChangeRequest(op: "revertAsset", target: target))
    }

    /// Moves the assets to Recently Deleted.
    public class func deleteAssets(_ assets: NSFastEnumeration) {
        ChangeBlock.required(for: "PHAssetChangeRequest.deleteAssets(_:)")?
            .append(ChangeRequest(op: "deleteAssets", ids: assets.photoObjects.map(\.localIdentifier)))
    }
}

/// PhotoKit's `PHAssetCreationRequest`: creates an asset from resources: a photo, video or audio file or bytes, and
/// beside a photo its Live Photo movie (`.pairedVideo`) or its RAW (`.alternatePhoto`).
public final class PHAssetCreationRequest: PHAssetChangeRequest, @unchecked Sendable {
    // @unchecked: used inside its change block only, on the thread running the block (as in PhotoKit).
    private var files: [NewAssetFileSource] = []
    private var isSubmitted = false

    required init(creating files: [NewAssetFileSource], name: String) {
        super.init(creating: files, name: name)
    }

    /// A request whose resources are added with `addResource(with:fileURL:options:)` and
    /// `addResource(with:data:options:)`.
    public class func forAsset() -> PHAssetCreationRequest {
        PHAssetCreationRequest(creating: [], name: "PHAssetCreationRequest.forAsset()")
    }

    /// Whether an asset can be made of resources of these types: one photo, video or audio, and beside a photo a
    /// paired video or an alternate photo.
    public class func supportsAssetResourceTypes(_ types: [NSNumber]) -> Bool {
        let kinds = types.compactMap { PHAssetResourceType(rawValue: $0.intValue)?.wireValue }
        guard kinds.count == types.count, Set(kinds).count == kinds.count else { return false }
        let primaries = kinds.filter { [.photo, .video, .audio].contains($0) }
        if kinds.contains(.pairedVideo) || kinds.contains(.alternatePhoto) { return primaries == [.photo] }
        return primaries.count == 1
    }

    /// Adds a resource from a file, copied into the library (moved when `options.shouldMoveFile`).
    public func addResource(with type: PHAssetResourceType, fileURL: URL, options: PHAssetResourceCreationOptions?) {
        add(type, .file(fileURL), options)
    }

    /// Adds a resource from bytes in memory.
    public func addResource(with type: PHAssetResourceType, data: Data, options: PHAssetResourceCreationOptions?) {
        add(type, .data(data), options)
    }

    private func add(
        _ type: PHAssetResourceType, _ bytes: NewAssetFileSource.Bytes, _ options: PHAssetResourceCreationOptions?
    ) {
        guard let placeholder = placeholderForCreatedAsset, let block else { return }
        guard let kind = type.wireValue else {
            return PhotosLog.report(
                "addResource(with: \(type)) was ignored",
                PHPhotosError(
                    .changeNotSupported,
                    reason: "the library keeps photo, video, audio, pairedVideo and alternatePhoto resources"))
        }
        files.append(
            NewAssetFileSource(
                type: kind, bytes: bytes, originalFilename: options?.originalFilename,
                uniformTypeIdentifier: options?.uniformTypeIdentifier,
                shouldMoveFile: options?.shouldMoveFile ?? false))
        // The creation is one change, submitted with its first resource and completed by the next ones.
        if isSubmitted {
            block.replaceCreation(of: placeholder, files: files)
        } else {
            isSubmitted = true
            block.append(.createAsset(placeholder: placeholder, files: files))
        }
    }
}

/// PhotoKit's `PHAssetResourceCreationOptions`.
public final class PHAssetResourceCreationOptions: NSObject, @unchecked Sendable {
    // @unchecked: settings, as in PhotoKit: the caller sets them before the call, which only reads them.
    /// The name the resource keeps (and whose extension tells the format of bytes).
    public var originalFilename: String?
    /// The format of bytes, as a type identifier (`public.jpeg`), when no name tells it.
    public var uniformTypeIdentifier: String?
    /// The format of bytes, as a type (`.heic`), when no name tells it; the same setting as `uniformTypeIdentifier`.
    public var contentType: UTType? {
        get { uniformTypeIdentifier.flatMap { UTType($0) } }
        set { uniformTypeIdentifier = newValue?.identifier }
    }
    /// Remove the file once the block has committed.
    public var shouldMoveFile = false
    public override init() {}
}

extension PHAssetResourceType {
    /// The library's resource type; nil for the types it does not keep (edits' and proxies' resources).
    var wireValue: ResourceType? {
        switch self {
        case .photo: .photo
        case .video: .video
        case .audio: .audio
        case .alternatePhoto: .alternatePhoto
        case .pairedVideo: .pairedVideo
        default: nil
        }
    }
}
