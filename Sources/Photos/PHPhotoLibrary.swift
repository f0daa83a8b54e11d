import Foundation
import PhotoLibrary

/// PhotoKit's `PHPhotoLibraryAvailabilityObserver`: hears that the library went away.
public protocol PHPhotoLibraryAvailabilityObserver: AnyObject {
    /// The daemon stopped and did not come back within the reconnect window; `unavailabilityReason` says so.
    func photoLibraryDidBecomeUnavailable(_ photoLibrary: PHPhotoLibrary)
}

/// PhotoKit's `PHPhotoLibrary`: the library served by photolibd (found as `PHOTOLIBD_SOCKET`, the config
/// file or the default socket say), its change transactions and its change observers.
public final class PHPhotoLibrary: NSObject, Sendable {
    private static let sharedLibrary = PHPhotoLibrary()

    private override init() {}

    public class func shared() -> PHPhotoLibrary { sharedLibrary }

    // MARK: Authorization

    /// What the daemon lets this user do, read and write; `.notDetermined` when the daemon cannot be reached.
    public class func authorizationStatus() -> PHAuthorizationStatus {
        authorizationStatus(for: .readWrite)
    }

    /// What the daemon lets this user do at `accessLevel`: at `.addOnly`, `.authorized` for a user who may add
    /// photos (the access policy's read-write and add-only grants).
    public class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        do {
            let status = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
                try await library.authorizationStatus(accessLevel: accessLevel.wireValue)
            }
            if accessLevel == .readWrite { LibraryClient.shared.remember(status) }
            return PHAuthorizationStatus(status)
        } catch {
            PhotosLog.report("the authorization status could not be read", error)
            return .notDetermined
        }
    }

    /// Calls `handler` with the status on a queue of the module's; the daemon's access policy decides, no one is asked.
    public class func requestAuthorization(_ handler: @escaping (PHAuthorizationStatus) -> Void) {
        requestAuthorization(for: .readWrite, handler: handler)
    }

    public class func requestAuthorization(
        for accessLevel: PHAccessLevel,
        handler: @escaping (PHAuthorizationStatus) -> Void
    ) {
        let handler = Unchecked(handler)
        DispatchQueue.global().async { handler.value(authorizationStatus(for: accessLevel)) }
    }

    public class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus {
        await withCheckedContinuation { answered in
            requestAuthorization(for: accessLevel) { answered.resume(returning: $0) }
        }
    }

    // MARK: Observers

    /// Starts calling `observer` with every committed transaction. The library holds it weakly, as PhotoKit does: an
    /// observer released without unregistering is dropped.
    public func register(_ observer: PHPhotoLibraryChangeObserver) {
        ChangeStream.shared.register(observer)
    }

    public func unregisterChangeObserver(_ observer: PHPhotoLibraryChangeObserver) {
        ChangeStream.shared.unregister(observer)
    }

    /// Starts telling `observer` when the library becomes unavailable; held weakly.
    public func register(_ observer: PHPhotoLibraryAvailabilityObserver) {
        ChangeStream.shared.register(availabilityObserver: observer)
    }

    public func unregisterAvailabilityObserver(_ observer: PHPhotoLibraryAvailabilityObserver) {
        ChangeStream.shared.unregister(availabilityObserver: observer)
    }

    /// Why the library is unavailable (the daemon gone and not back within the reconnect window); nil while it is.
    public var unavailabilityReason: Error? { ChangeStream.shared.unavailabilityReason }

    // MARK: Changes

    /// Runs `changeBlock` on a queue of the module's, commits the change requests it made as one transaction,
    /// then calls `completionHandler` there with the outcome (a `PHPhotosError` when refused).
    public func performChanges(_ changeBlock: @escaping () -> Void, completionHandler: ((Bool, Error?) -> Void)? = nil)
    {
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

    /// As `performChanges(_:completionHandler:)`, returning once the transaction is committed.
    ///
    /// - Throws: `PHPhotosError` with the daemon's reason when the transaction is refused.
    public func performChanges(_ changeBlock: @escaping () -> Void) async throws {
        let block = Unchecked(changeBlock)
        try await withCheckedThrowingContinuation { (committed: CheckedContinuation<Void, any Error>) in
            performChanges(block.value) { success, error in
                if success {
                    committed.resume()
                } else {
                    committed.resume(throwing: error ?? PHPhotosError(.internalError, reason: ""))
                }
            }
        }
    }

    /// Runs `changeBlock` on the calling thread and commits its change requests as one transaction.
    ///
    /// - Throws: `PHPhotosError` with the daemon's reason when the transaction is refused.
    public func performChangesAndWait(_ changeBlock: () -> Void) throws {
        try withoutActuallyEscaping(changeBlock) { try ChangeBlock.run($0) }
    }

    // MARK: Persistent changes

    /// The token of the library's state now, to fetch the changes after it later (and in a later run: it is
    /// `NSSecureCoding`).
    public var currentChangeToken: PHPersistentChangeToken {
        let token = try? LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.fetchCollections(matching: CollectionQuery(limit: 0), pageSize: 0).token
        }
        return PHPersistentChangeToken(token ?? "")
    }

    /// The transactions committed after `token`, in order.
    ///
    /// - Throws: `PHPhotosError.persistentChangeTokenExpired` when the history no longer reaches back to `token`
    ///   (or it is another library's): fetch again.
    public func fetchPersistentChanges(since token: PHPersistentChangeToken) throws -> PHPersistentChangeFetchResult {
        do {
            return try PHPersistentChangeFetchResult(changes: PersistentChanges.fetch(since: token.token))
        } catch {
            throw PHPhotosError(error)
        }
    }
}

extension PHAccessLevel {
    var wireValue: AccessLevel {
        switch self {
        case .addOnly: .addOnly
        case .readWrite: .readWrite
        }
    }
}
