import Foundation
import PhotoLibrary
import Synchronization

/// PhotoKit's `PHAssetResource`: one file of an asset (its photo, video, a Live Photo's movie, a RAW beside its
/// JPEG), read through `PHAssetResourceManager`.
public final class PHAssetResource: NSObject, Sendable {
    public let type: PHAssetResourceType
    /// The identifier of the asset the file belongs to.
    public let assetLocalIdentifier: String
    /// The file's type (`.jpeg`, `.quickTimeMovie`, `com.canon.cr2-raw-image`).
    public let contentType: UTType
    /// The file's type identifier (`public.jpeg`, `com.apple.quicktime-movie`).
    public var uniformTypeIdentifier: String { contentType.identifier }
    public let originalFilename: String
    /// The width of the asset's primary file as displayed, before any edit; 0 for the other files and for an edited
    /// asset's (the daemon reports no size of theirs).
    public let pixelWidth: Int
    /// The height of the asset's primary file as displayed, before any edit; 0 as `pixelWidth` is.
    public let pixelHeight: Int
    /// The daemon's file, which this process may not be able to open (the manager reads it through the socket then).
    let path: String?
    let fileSize: Int64

    init(_ resource: AssetResource, of asset: Asset) {
        type = resource.type.photoKitValue
        assetLocalIdentifier = asset.id
        let isSized = !asset.hasAdjustments && asset.resources?.first == resource
        pixelWidth = isSized ? asset.pixelWidth : 0
        pixelHeight = isSized ? asset.pixelHeight : 0
        contentType = UniformType.type(forMIMEType: resource.mimeType)
        originalFilename = resource.originalFilename
        path = resource.path
        fileSize = resource.fileSize
    }

    /// A file of the program's, of no asset (the still or movie of a Live Photo made from files).
    init(file url: URL, type: PHAssetResourceType, contentType: UTType, pixelSize: CGSize = .zero) {
        self.type = type
        assetLocalIdentifier = ""
        self.contentType = contentType
        originalFilename = url.lastPathComponent
        pixelWidth = Int(pixelSize.width)
        pixelHeight = Int(pixelSize.height)
        path = url.path
        fileSize = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// The files of `asset`, its primary one first.
    public class func assetResources(for asset: PHAsset) -> [PHAssetResource] {
        let assetId = asset.localIdentifier
        let found = try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
            let query = AssetQuery(
                ids: [assetId], includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)
            return try await library.fetchAssets(matching: query, pageSize: 1, includeResources: true).assets.first
        }
        guard let found else { return [] }
        return (found.resources ?? []).map { PHAssetResource($0, of: found) }
    }

    /// The files of a Live Photo: its photo and its movie.
    public class func assetResources(for livePhoto: PHLivePhoto) -> [PHAssetResource] {
        livePhoto.resources
    }

    /// The one private key pickers read on every iOS version: `fileSize`, the file's size in bytes as an `NSNumber`;
    /// nil for any other key.
    public func value(forKey key: String) -> Any? {
        key == "fileSize" ? NSNumber(value: fileSize) : nil
    }

    public override var description: String {
        "<PHAssetResource: \(type) \(originalFilename) of \(assetLocalIdentifier)>"
    }
}

extension ResourceType {
    var photoKitValue: PHAssetResourceType {
        switch self {
        case .photo: .photo
        case .video: .video
        case .audio: .audio
        case .alternatePhoto: .alternatePhoto
        case .pairedVideo: .pairedVideo
        }
    }
}

public typealias PHAssetResourceDataRequestID = Int32
public typealias PHAssetResourceProgressHandler = (Double) -> Void

/// PhotoKit's `PHAssetResourceRequestOptions`.
public final class PHAssetResourceRequestOptions: NSObject, @unchecked Sendable {
    // @unchecked: settings, as in PhotoKit: the caller sets them before the call, which only reads them.
    /// Every file is local: there is no network to allow.
    public var isNetworkAccessAllowed = false
    /// Called with the fraction of the bytes delivered, 0...1.
    public var progressHandler: PHAssetResourceProgressHandler?

    public override init() {}
}

/// PhotoKit's `PHAssetResourceManager`: the bytes of asset resources, in chunks or written to a file, read where
/// they lie when this process may open the library's files and through the socket when it may not.
public final class PHAssetResourceManager: NSObject, Sendable {
    private static let defaultManager = PHAssetResourceManager()
    private static let requestIds = Mutex<PHAssetResourceDataRequestID>(0)

    private let running = Mutex<[PHAssetResourceDataRequestID: TransferCancellation]>([:])

    public override init() {}

    public class func `default`() -> PHAssetResourceManager { defaultManager }

    /// Delivers the resource's bytes to `handler` in chunks, in order, then calls `completionHandler` with nil, or
    /// with the error (`userCancelled` after `cancelDataRequest`). Handlers run on a thread of the request's own.
    @discardableResult
    public func requestData(
        for resource: PHAssetResource, options: PHAssetResourceRequestOptions?,
        dataReceivedHandler handler: @escaping (Data) -> Void,
        completionHandler: @escaping (Error?) -> Void
    ) -> PHAssetResourceDataRequestID {
        let progress = Unchecked(options?.progressHandler)
        let handlers = Unchecked((handler, completionHandler))
        return start(resource) { path, cancellation throws in
            let size = max(1, Double(resource.fileSize))
            var delivered = 0.0
            try LibraryClient.shared.transfers.stream(path, cancellation: cancellation) { chunk in
                handlers.value.0(chunk)
                delivered += Double(chunk.count)
                progress.value?(min(1, delivered / size))
            }
        } finished: { error in
            handlers.value.1(error)
        }
    }

    /// Writes the resource's bytes to a new file at `fileURL` (which must not exist; its folder must), then calls
    /// `completionHandler` with nil or the error. A write that fails or is cancelled leaves no file.
    public func writeData(
        for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?,
        completionHandler: @escaping (Error?) -> Void
    ) {
        let progress = Unchecked(options?.progressHandler)
        start(resource) { path, cancellation throws in
            try LibraryClient.shared.transfers.copy(path, to: fileURL.path, cancellation: cancellation) { done, size in
                progress.value?(size > 0 ? Double(done) / Double(size) : 1)
            }
        } finished: { error in
            completionHandler(error)
        }
    }

    /// As `writeData(for:toFile:options:completionHandler:)`, returning when the file is written.
    public func writeData(
        for resource: PHAssetResource, toFile fileURL: URL,
        options: PHAssetResourceRequestOptions?
    ) async throws {
        try await withCheckedThrowingContinuation { (written: CheckedContinuation<Void, any Error>) in
            writeData(for: resource, toFile: fileURL, options: options) { error in
                if let error { written.resume(throwing: error) } else { written.resume() }
            }
        }
    }

    /// Stops a request: its completion handler gets `PHPhotosError.userCancelled`, and a file being written is removed.
    public func cancelDataRequest(_ requestID: PHAssetResourceDataRequestID) {
        running.withLock { $0[requestID] }?.cancel()
    }

    /// Runs `transfer` on the resource's file on a thread of its own, then `finished` with its outcome.
    @discardableResult
    private func start(
        _ resource: PHAssetResource,
        transfer: @escaping (String, TransferCancellation) throws -> Void,
        finished: @escaping (PHPhotosError?) -> Void
    ) -> PHAssetResourceDataRequestID {
        let requestId = Self.requestIds.withLock { id in
            id = id == .max ? 1 : id + 1
            return id
        }
        let cancellation = TransferCancellation()
        running.withLock { $0[requestId] = cancellation }
        let work = Unchecked((transfer, finished))
        Thread { [self] in
            let (transfer, finished) = work.value
            var failure: PHPhotosError?
            do {
                guard let path = resource.path else {
                    throw PHPhotosError(
                        .missingResource, reason: "\(resource.originalFilename) has no file in the library")
                }
                try transfer(path, cancellation)
            } catch {
                failure =
                    cancellation.isCancelled
                    ? PHPhotosError(.userCancelled, reason: "the request was cancelled") : PHPhotosError(error)
            }
            running.withLock { $0[requestId] = nil }
            finished(failure)
        }.start()
        return requestId
    }
}
