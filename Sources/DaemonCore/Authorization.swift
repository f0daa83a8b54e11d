import Glibc
import PhotolibConfig
import PhotolibProtocol
import Synchronization

/// What a caller may do with the library.
package enum CallerAccess: Sendable, Hashable {
    /// Read and change it.
    case readWrite
    /// Read it only.
    case readOnly
    /// Add photos and videos to it, and see nothing of it (PhotoKit's `.addOnly` access level).
    case addOnly
    case denied
    /// The kernel did not say who is calling.
    case notDetermined

    /// Fetches return the library's contents; images and files are served.
    package var canRead: Bool { self == .readWrite || self == .readOnly }
    /// Any change.
    package var canWrite: Bool { self == .readWrite }
    /// New assets: `createAsset` changes, uploads, `ImportFiles`.
    package var canAdd: Bool { self == .readWrite || self == .addOnly }

    /// What `AuthorizationStatus` says at `level`: PhotoKit's `authorizationStatus(for:)`. The read-write level (the
    /// default) is all or nothing: an add-only caller is denied it; the add-only level is authorized to every caller
    /// who may add.
    package func status(at level: AccessLevel) -> AuthorizationStatus {
        switch (self, level) {
        case (.readWrite, _): .authorized
        case (.readOnly, .readWrite): .restricted
        case (.readOnly, .addOnly): .denied
        case (.addOnly, .addOnly): .authorized
        case (.addOnly, .readWrite), (.denied, _): .denied
        case (.notDetermined, _): .notDetermined
        }
    }
}

/// Decides a caller's access from its user id and the access policy, which a reload may replace.
package final class Authorization: Sendable {
    private let policy: Mutex<AccessPolicy>
    let daemonUID: UInt32

    package init(policy: AccessPolicy, daemonUID: UInt32 = getuid()) {
        self.policy = Mutex(policy)
        self.daemonUID = daemonUID
    }

    /// Applies to every later call.
    package func replacePolicy(with policy: AccessPolicy) {
        self.policy.withLock { $0 = policy }
    }

    /// The daemon's own user and root may do everything; listed users as the policy says; others nothing.
    package func access(of caller: Caller?) -> CallerAccess {
        guard let caller else { return .notDetermined }
        let policy = self.policy.withLock { $0 }
        if caller.uid == 0 || caller.uid == daemonUID || policy.readWriteUsers.contains(caller.uid) {
            return .readWrite
        }
        if policy.readOnlyUsers.contains(caller.uid) { return .readOnly }
        if policy.addOnlyUsers.contains(caller.uid) { return .addOnly }
        return .denied
    }
}
