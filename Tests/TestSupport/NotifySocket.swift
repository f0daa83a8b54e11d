import Foundation
import Glibc
import Synchronization

/// A `NOTIFY_SOCKET` of the test's own: the datagram socket a daemon sends its sd_notify(3) messages to, as
/// systemd would receive them, collected as they arrive.
public final class NotifySocket: Sendable {
    public let path: String
    private let descriptor: Int32
    private let received = Received()

    private final class Received: Sendable {
        let messages = Mutex<[String]>([])
    }

    /// Binds a datagram socket at `path` (which must not exist) and starts collecting.
    public init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0 else { throw DaemonError("cannot bind the notify socket \(path)") }
        Thread { [descriptor, received] in Self.receive(from: descriptor, into: received) }.start()
    }

    /// Wakes the receiving thread, which closes the socket as it ends: closing it here could hand its number to
    /// another descriptor (a process monitor's) before the thread's next receive.
    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        unlink(path)
    }

    /// Every message so far, one per datagram, in order of arrival.
    public var messages: [String] { received.messages.withLock { $0 } }

    /// The `KEY=value` assignments of every message so far, in order.
    public var assignments: [String] { messages.flatMap { $0.split(separator: "\n").map(String.init) } }

    /// The environment that points a daemon at this socket.
    public var environment: [String: String] { ["NOTIFY_SOCKET": path] }

    private static func receive(from descriptor: Int32, into received: Received) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                close(descriptor)
                return
            }
            let message = String(decoding: buffer.prefix(count), as: UTF8.self)
            received.messages.withLock { $0.append(message) }
        }
    }
}
