import Glibc
import PhotolibConfig
import PhotolibProtocol
import Varlink

extension AuthorizationStatus {
    var canWrite: Bool { self == .authorized }
}

/// Decides a caller's status from its peer credentials and the access policy.
public struct Authorization: Sendable {
    let policy: AccessPolicy
    let daemonUID: UInt32

    public init(policy: AccessPolicy, daemonUID: UInt32 = getuid()) {
        self.policy = policy
        self.daemonUID = daemonUID
    }

    /// The daemon's own user and root may do everything; listed users as the policy says; others nothing.
    func status(of peer: PeerCredentials?) -> AuthorizationStatus {
        guard let peer else { return .notDetermined }
        if peer.uid == 0 || peer.uid == daemonUID || policy.readWriteUsers.contains(peer.uid) { return .authorized }
        if policy.readOnlyUsers.contains(peer.uid) { return .restricted }
        return .denied
    }
}
