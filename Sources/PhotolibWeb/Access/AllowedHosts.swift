import Synchronization

/// The `Host` values the gallery answers to, worked out once from its configuration and, when it listens on port 0,
/// again with the port the system gave it (which is only known once the server runs); nil on a Unix socket.
final class AllowedHosts: Sendable {
    private let configuration: GalleryConfiguration
    private let hosts: Mutex<Set<String>?>

    init(_ configuration: GalleryConfiguration) {
        self.configuration = configuration
        hosts = Mutex(configuration.allowedHosts(boundPort: nil))
    }

    var current: Set<String>? { hosts.withLock { $0 } }

    func bound(to port: Int?) {
        let bound = configuration.allowedHosts(boundPort: port)
        hosts.withLock { $0 = bound }
    }
}
