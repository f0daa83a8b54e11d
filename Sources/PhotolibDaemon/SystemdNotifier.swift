import DaemonCore
import Glibc

/// Sends sd_notify(3) messages (`READY=1`, `STOPPING=1`, `STATUS=…`) to systemd when it asked for them.
public enum SystemdNotifier {
    /// Sends `message` to `$NOTIFY_SOCKET`; does nothing when the variable is unset. Returns whether it was sent.
    @discardableResult
    public static func notify(_ message: String, environment: [String: String]) -> Bool {
        guard var path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return false }
        // A leading '@' names a socket in the abstract namespace.
        let isAbstract = path.hasPrefix("@")
        if isAbstract { path.removeFirst() }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count + (isAbstract ? 1 : 0) < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: (isAbstract ? [0] : []) + pathBytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (isAbstract ? 1 : 0))
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let sent = message.withCString { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, text, strlen(text), Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        return sent >= 0
    }
}
