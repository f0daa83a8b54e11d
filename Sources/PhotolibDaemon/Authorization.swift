import Glibc
import PhotolibConfig
import PhotolibProtocol
import Synchronization
import Varlink

extension AuthorizationStatus {
    var canWrite: Bool { self == .authorized }
}

/// Decides a caller's status from its peer credentials and the access policy, which a reload may replace.
final class Authorization: Sendable {
    private let policy: Mutex<AccessPolicy>
    let daemonUID: UInt32

    init(policy: AccessPolicy, daemonUID: UInt32 = getuid()) {
        self.policy = Mutex(policy)
        self.daemonUID = daemonUID
    }

    /// Applies to every later call.
    func replacePolicy(with policy: AccessPolicy) {
        self.policy.withLock { $0 = policy }
    }

    /// The daemon's own user and root may do everything; listed users as the policy says; others nothing.
    func status(of peer: PeerCredentials?) -> AuthorizationStatus {
        guard let peer else { return .notDetermined }
        let policy = self.policy.withLock { $0 }
        if peer.uid == 0 || peer.uid == daemonUID || policy.readWriteUsers.contains(peer.uid) { return .authorized }
        if policy.readOnlyUsers.contains(peer.uid) { return .restricted }
        return .denied
    }
}
