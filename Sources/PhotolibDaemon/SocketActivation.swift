import DaemonCore
import Foundation
import Glibc

/// The listening socket systemd hands over when a `.socket` unit starts the daemon (sd_listen_fds(3)).
enum SocketActivation {
    /// The first descriptor systemd passes.
    static let firstDescriptor: Int32 = 3

    struct Unusable: Error, CustomStringConvertible {
        let reason: String
        var description: String { "systemd passed a socket the daemon cannot serve: \(reason); check the .socket unit" }
    }

    /// The listening Unix stream socket passed to this process and the path it listens on, or nil when the daemon
    /// was not started by socket activation. Clears `LISTEN_*` so that programs the daemon runs inherit nothing.
    static func takeListeningSocket(environment: [String: String]) throws -> (descriptor: Int32, path: String)? {
        guard let pid = environment["LISTEN_PID"], pid == String(getpid()),
            let count = environment["LISTEN_FDS"].flatMap(Int32.init), count > 0
        else { return nil }
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        guard count == 1 else { throw Unusable(reason: "\(count) sockets instead of one") }
        let descriptor = firstDescriptor
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        guard option(SO_DOMAIN, of: descriptor) == AF_UNIX,
            option(SO_TYPE, of: descriptor) == Int32(SOCK_STREAM.rawValue),
            option(SO_ACCEPTCONN, of: descriptor) == 1
        else { throw Unusable(reason: "it is not a listening Unix stream socket") }
        return (descriptor, boundPath(of: descriptor) ?? "(an unnamed socket)")
    }

    private static func option(_ name: Int32, of descriptor: Int32) -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
    }

    private static func boundPath(of descriptor: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        return withUnsafeBytes(of: address.sun_path) { bytes in
            let path = bytes.prefix { $0 != 0 }
            return path.isEmpty ? nil : String(decoding: path, as: UTF8.self)
        }
    }
}
