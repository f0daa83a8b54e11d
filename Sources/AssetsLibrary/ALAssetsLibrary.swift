import Foundation
import PhotoLibrary
import Photos
import Synchronization

public typealias ALAssetsGroupType = Int
public let ALAssetsGroupLibrary: ALAssetsGroupType = 1 << 0
public let ALAssetsGroupAlbum: ALAssetsGroupType = 1 << 1
public let ALAssetsGroupEvent: ALAssetsGroupType = 1 << 2
public let ALAssetsGroupFaces: ALAssetsGroupType = 1 << 3
public let ALAssetsGroupSavedPhotos: ALAssetsGroupType = 1 << 4
public let ALAssetsGroupPhotoStream: ALAssetsGroupType = 1 << 5
public let ALAssetsGroupAll: ALAssetsGroupType = 0xFFFF_FFFF

public typealias ALAssetsLibraryGroupsEnumerationResultsBlock = (ALAssetsGroup?, UnsafeMutablePointer<ObjCBool>?) ->
    Void
public typealias ALAssetsLibraryAccessFailureBlock = (Error?) -> Void
public typealias ALAssetsLibraryAssetForURLResultBlock = (ALAsset?) -> Void
public typealias ALAssetsLibraryGroupResultBlock = (ALAssetsGroup?) -> Void
public typealias ALAssetsLibraryWriteImageCompletionBlock = (URL?, Error?) -> Void
public typealias ALAssetsLibraryWriteVideoCompletionBlock = (URL?, Error?) -> Void

/// Posted on `NotificationCenter.default` when the library changes; `userInfo` holds sets of URLs under the keys below.
public let ALAssetsLibraryChangedNotification = "ALAssetsLibraryChangedNotification"
public let ALAssetLibraryUpdatedAssetsKey = "ALAssetLibraryUpdatedAssetsKey"
public let ALAssetLibraryInsertedAssetGroupsKey = "ALAssetLibraryInsertedAssetGroupsKey"
public let ALAssetLibraryUpdatedAssetGroupsKey = "ALAssetLibraryUpdatedAssetGroupsKey"
public let ALAssetLibraryDeletedAssetGroupsKey = "ALAssetLibraryDeletedAssetGroupsKey"

extension Notification.Name {
    /// `ALAssetsLibraryChangedNotification` as a notification name.
    public static let ALAssetsLibraryChanged = Notification.Name(ALAssetsLibraryChangedNotification)
}

public let ALAssetsLibraryErrorDomain = "ALAssetsLibraryErrorDomain"

/// AssetsLibrary's `ALAuthorizationStatus`.
public enum ALAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
}

/// AssetsLibrary's `ALAssetsLibrary`: the library served by photolibd, in groups (the library, albums and
/// events) of assets. Blocks run on a queue of the module's, never on the caller's thread.
public final class ALAssetsLibrary: NSObject, Sendable {
    /// Blocks run here, one call's blocks in order.
    private let queue = DispatchQueue(label: "assetslibrary.calls")

    public override init() {
        super.init()
        ChangeNotifier.shared.start(for: self)
    }

    public class func authorizationStatus() -> ALAuthorizationStatus {
        ALAuthorizationStatus(rawValue: PHPhotoLibrary.authorizationStatus().rawValue) ?? .authorized
    }

    /// Shared photo streams do not exist here; nothing to disable.
    public class func disableSharedPhotoStreamsSupport() {}

    /// Calls `enumerationBlock` with each group of the given types (the library first, then albums, then events),
    /// then once with nil. `failureBlock` is called instead when the daemon refuses or cannot be reached.
    public func enumerateGroupsWithTypes(
        _ types: ALAssetsGroupType,
        usingBlock enumerationBlock: @escaping ALAssetsLibraryGroupsEnumerationResultsBlock,
        failureBlock: @escaping ALAssetsLibraryAccessFailureBlock
    ) {
        let blocks = Unchecked((enumerationBlock, failureBlock))
        queue.async {
            let (enumerationBlock, failureBlock) = blocks.value
            do {
                var stop = ObjCBool(false)
                for group in try ALAssetsGroup.groups(of: types) {
                    enumerationBlock(group, &stop)
                    if stop.boolValue { return }
                }
                enumerationBlock(nil, &stop)
            } catch {
                failureBlock(AssetsLibraryError.read(error))
            }
        }
    }

    /// The same as `enumerateGroupsWithTypes(_:usingBlock:failureBlock:)`, in the spelling of Swift 3 and later.
    public func enumerateGroups(
        withTypes types: ALAssetsGroupType,
        using enumerationBlock: @escaping ALAssetsLibraryGroupsEnumerationResultsBlock,
        failureBlock: @escaping ALAssetsLibraryAccessFailureBlock
    ) {
        enumerateGroupsWithTypes(types, usingBlock: enumerationBlock, failureBlock: failureBlock)
    }

    /// The asset an `assets-library://asset/…` URL names; nil when there is none.
    public func asset(
        for assetURL: URL, resultBlock: @escaping ALAssetsLibraryAssetForURLResultBlock,
        failureBlock: @escaping ALAssetsLibraryAccessFailureBlock
    ) {
        run(resultBlock, failureBlock) {
            guard let identifier = AssetURL.identifier(in: assetURL) else { return nil }
            return try ALAsset.fetch(identifier)
        }
    }

    /// The group an `assets-library://group/…` URL names; nil when there is none.
    public func group(
        for groupURL: URL, resultBlock: @escaping ALAssetsLibraryGroupResultBlock,
        failureBlock: @escaping ALAssetsLibraryAccessFailureBlock
    ) {
        run(resultBlock, failureBlock) {
            guard let identifier = AssetURL.identifier(in: groupURL) else { return nil }
            return try ALAssetsGroup.fetch(identifier)
        }
    }

    /// Creates an album; the result is nil when an album of that name exists already.
    public func addAssetsGroupAlbum(
        withName name: String, resultBlock: @escaping ALAssetsLibraryGroupResultBlock,
        failureBlock: @escaping ALAssetsLibraryAccessFailureBlock
    ) {
        run(resultBlock, failureBlock) {
            let albums = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
                try await library.fetchAllCollections(matching: CollectionQuery(kind: .album)).collections
            }
            guard !albums.contains(where: { $0.title == name }) else { return nil }
            let result = try LibraryClient.shared.call(idempotent: false) { library throws(PhotoLibraryError) in
                try await library.performChanges([ChangeRequest(op: "createAlbum", placeholder: "@album", title: name)])
            }
            return try result.created["@album"].flatMap(ALAssetsGroup.fetch)
        }
    }

    /// Adds encoded image data (JPEG, PNG, HEIC, …) to the library, `metadata` written into it (a JPEG's EXIF: the
    /// `{TIFF}`, `{Exif}` and `{GPS}` groups and `Orientation`).
    public func writeImageData(
        toSavedPhotosAlbum imageData: Data, metadata: [AnyHashable: Any]?,
        completionBlock: ALAssetsLibraryWriteImageCompletionBlock?
    ) {
        save(completionBlock) { try SavedImage.save(SavedImage.writing(metadata, into: imageData)) }
    }

    /// Adds an image (AssetsLibrary's `CGImage`: a `PHImage` here) as a JPEG shown turned as `orientation` says.
    public func writeImage(
        toSavedPhotosAlbum imageRef: PHImage!, orientation: ALAssetOrientation,
        completionBlock: ALAssetsLibraryWriteImageCompletionBlock!
    ) {
        save(completionBlock) {
            try SavedImage.save(
                SavedImage.writing(["Orientation": orientation.exifValue], into: try Self.jpeg(of: imageRef)))
        }
    }

    /// Adds an image as a JPEG with `metadata` written into it.
    public func writeImage(
        toSavedPhotosAlbum imageRef: PHImage!, metadata: [AnyHashable: Any]!,
        completionBlock: ALAssetsLibraryWriteImageCompletionBlock!
    ) {
        save(completionBlock) { try SavedImage.save(SavedImage.writing(metadata, into: try Self.jpeg(of: imageRef))) }
    }

    /// Adds a video file to the library (the file is copied).
    public func writeVideoAtPath(
        toSavedPhotosAlbum videoPathURL: URL, completionBlock: ALAssetsLibraryWriteVideoCompletionBlock?
    ) {
        save(completionBlock) { try SavedImage.save(fileAt: videoPathURL) }
    }

    /// Runs `body` on the library's queue and gives its URL, or its error (`AssetsLibraryError.write`), to
    /// `completionBlock`.
    private func save(_ completionBlock: ((URL?, Error?) -> Void)?, _ body: @escaping () throws -> URL) {
        let work = Unchecked((completionBlock, body))
        queue.async {
            let (completionBlock, body) = work.value
            do {
                completionBlock?(try body(), nil)
            } catch {
                completionBlock?(nil, AssetsLibraryError.write(error))
            }
        }
    }

    private static func jpeg(of image: PHImage?) throws -> Data {
        guard let data = image?.jpegData(compressionQuality: 0.95) else {
            throw PHPhotosError(.invalidResource, reason: "the image cannot be read or encoded as a JPEG")
        }
        return data
    }

    public func videoAtPathIs(compatibleWithSavedPhotosAlbum videoPathURL: URL) -> Bool {
        ["mov", "mp4", "m4v", "mkv", "webm", "avi"].contains(videoPathURL.pathExtension.lowercased())
    }

    /// Runs `body` on the library's queue and hands its result, or its error, to the caller's blocks.
    private func run<Value>(
        _ resultBlock: @escaping (Value?) -> Void, _ failureBlock: @escaping ALAssetsLibraryAccessFailureBlock,
        _ body: @escaping () throws -> Value?
    ) {
        let work = Unchecked((resultBlock, failureBlock, body))
        queue.async {
            let (resultBlock, failureBlock, body) = work.value
            do {
                resultBlock(try body())
            } catch {
                failureBlock(AssetsLibraryError.read(error))
            }
        }
    }
}

/// Image formats told by their first bytes.
enum ImageFormat {
    static func fileExtension(of data: Data) -> String {
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if head.starts(with: Array("GIF8".utf8)) { return "gif" }
        if head.count == 12, head[0...3] == [0x52, 0x49, 0x46, 0x46], head[8...11] == Array("WEBP".utf8)[...] {
            return "webp"
        }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "tif" }
        if head.count == 12, head[4...7] == Array("ftyp".utf8)[...] { return "heic" }
        return "jpg"
    }
}

/// Posts `ALAssetsLibraryChangedNotification` for every committed transaction, once any `ALAssetsLibrary` exists.
final class ChangeNotifier: NSObject, PHPhotoLibraryChangeObserver, Sendable {
    static let shared = ChangeNotifier()

    private struct State {
        var started = false
        weak var library: ALAssetsLibrary?
    }

    private let state = Mutex(State())

    func start(for library: ALAssetsLibrary) {
        let first = state.withLock { state in
            defer { state.started = true }
            state.library = library
            return !state.started
        }
        if first { PHPhotoLibrary.shared().register(self) }
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        var updatedAssets = Set<URL>(), inserted = Set<URL>(), updated = Set<URL>(), deleted = Set<URL>()
        let assetIds = changeInstance.objects.filter { $0.kind == .asset }.map(\.id)
        // Asset URLs carry the file's extension; an asset deleted meanwhile gets the default one.
        let filenames =
            assetIds.isEmpty
            ? [:]
            : (try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
                try await library.assets(withIds: assetIds).mapValues(\.originalFilename)
            }) ?? [:]
        for object in changeInstance.objects {
            switch object.kind {
            case .asset:
                updatedAssets.insert(AssetURL.asset(object.id, filename: filenames[object.id] ?? ""))
            case .collection:
                let url = AssetURL.group(object.id)
                switch object.change {
                case .inserted: inserted.insert(url)
                case .changed: updated.insert(url)
                case .removed: deleted.insert(url)
                }
            }
        }
        var userInfo: [AnyHashable: Any] = [:]
        if !updatedAssets.isEmpty { userInfo[ALAssetLibraryUpdatedAssetsKey] = updatedAssets }
        if !inserted.isEmpty { userInfo[ALAssetLibraryInsertedAssetGroupsKey] = inserted }
        if !updated.isEmpty { userInfo[ALAssetLibraryUpdatedAssetGroupsKey] = updated }
        if !deleted.isEmpty { userInfo[ALAssetLibraryDeletedAssetGroupsKey] = deleted }
        let library = state.withLock { $0.library }
        NotificationCenter.default.post(
            name: .ALAssetsLibraryChanged, object: library,
            userInfo: userInfo)
    }
}
