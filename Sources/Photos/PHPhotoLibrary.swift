import Foundation
import PhotoLibrary

/// PhotoKit's `PHPhotoLibrary`: the library served by photolibd (found as `PHOTOLIBD_SOCKET`, the config
/// file or the default socket say), its change transactions and its change observers.
public final class PHPhotoLibrary: NSObject, @unchecked Sendable {
    private static let sharedLibrary = PHPhotoLibrary()

    private override init() {}

    public class func shared() -> PHPhotoLibrary { sharedLibrary }

    /// What the daemon lets this user do; `.notDetermined` when the daemon cannot be reached.
    public class func authorizationStatus() -> PHAuthorizationStatus {
        do {
            return PHAuthorizationStatus(try LibraryClient.shared.call { library throws(PhotoLibraryError) in
                try await library.authorizationStatus()
            })
        } catch {
            PhotosLog.report("the authorization status could not be read", error)
            return .notDetermined
        }
    }

    public class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        authorizationStatus()
    }

    /// Calls `handler` with the status on a queue of the module's; the daemon's access policy decides, no one is asked.
    public class func requestAuthorization(_ handler: @escaping (PHAuthorizationStatus) -> Void) {
        let handler = Unchecked(handler)
        DispatchQueue.global().async { handler.value(authorizationStatus()) }
    }

    public class func requestAuthorization(for accessLevel: PHAccessLevel,
                                           handler: @escaping (PHAuthorizationStatus) -> Void) {
        requestAuthorization(handler)
    }

    /// Starts calling `observer` with every committed transaction. The library holds it until it is unregistered.
    public func register(_ observer: PHPhotoLibraryChangeObserver) {
        ChangeStream.shared.register(observer)
    }

    public func unregisterChangeObserver(_ observer: PHPhotoLibraryChangeObserver) {
        ChangeStream.shared.unregister(observer)
    }

    /// Runs `changeBlock` on a queue of the module's, commits the change requests it made as one transaction,
    /// then calls `completionHandler` there with the outcome.
    public func performChanges(_ changeBlock: @escaping () -> Void, completionHandler: ((Bool, Error?) -> Void)? = nil) {
        let work = Unchecked((changeBlock, completionHandler))
        ChangeBlock.queue.async {
            let (changeBlock, completionHandler) = work.value
            do {
                try ChangeBlock.run(changeBlock)
                completionHandler?(true, nil)
            } catch {
                completionHandler?(false, error)
            }
        }
    }

    /// Runs `changeBlock` on the calling thread and commits its change requests as one transaction.
    ///
    /// - Throws: `PhotoLibraryError` with the daemon's reason when the transaction is refused.
    public func performChangesAndWait(_ changeBlock: () -> Void) throws {
        try withoutActuallyEscaping(changeBlock) { try ChangeBlock.run($0) }
    }
}

/// The change requests of the change block running on this thread, in the order they were made.
final class ChangeBlock: @unchecked Sendable {
    /// Where `performChanges` runs its blocks, one at a time.
    static let queue = DispatchQueue(label: "photos.performChanges")
    private static let threadKey = "io.photolibd.Photos.changeBlock"

    private(set) var requests: [ChangeRequest] = []
    private var placeholders: [PHObjectPlaceholder] = []

    /// The block running on this thread; nil outside of a change block.
    static var current: ChangeBlock? {
        Thread.current.threadDictionary[threadKey] as? ChangeBlock
    }

    /// The block on this thread. Outside of one, a change request does nothing, and says so on standard error
    /// (PhotoKit raises an exception).
    static func required(for request: String) -> ChangeBlock? {
        guard let block = current else {
            PhotosLog.report("\(request) was ignored", PhotoLibraryError(
                code: .invalidChange, message: "change requests can only be made inside performChanges or performChangesAndWait"))
            return nil
        }
        return block
    }

    /// Runs `body` as this thread's change block and commits what it asked for.
    static func run(_ body: () -> Void) throws {
        let block = ChangeBlock()
        let thread = Thread.current
        guard thread.threadDictionary[threadKey] == nil else {
            throw PhotoLibraryError(code: .invalidChange, message: "a change block cannot run inside another change block")
        }
        thread.threadDictionary[threadKey] = block
        body()
        thread.threadDictionary[threadKey] = nil
        try block.commit()
    }

    func append(_ request: ChangeRequest) {
        requests.append(request)
    }

    /// A new placeholder for an object this block creates.
    func makePlaceholder(_ kind: String) -> PHObjectPlaceholder {
        let placeholder = PHObjectPlaceholder(placeholder: "@\(kind)\(placeholders.count + 1)")
        placeholders.append(placeholder)
        return placeholder
    }

    private func commit() throws {
        guard !requests.isEmpty else { return }
        let requests = requests
        let result = try LibraryClient.shared.call(idempotent: false) { library throws(PhotoLibraryError) in
            try await library.performChanges(requests)
        }
        for placeholder in placeholders {
            if let id = result.created[placeholder.placeholder] { placeholder.commit(as: id) }
        }
    }
}
