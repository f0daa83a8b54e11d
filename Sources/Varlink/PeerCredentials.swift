#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore

/// Who is calling: the process at the other end of the socket, as the kernel saw it when it connected.
public struct PeerCredentials: Sendable, Hashable {
    /// The process ID.
    public let pid: Int32
    /// The effective user ID.
    public let uid: UInt32
    /// The effective group ID.
    public let gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

extension PeerCredentials {
    /// Linux's `struct ucred`, which Glibc's Swift module does not expose.
    private struct KernelCredentials: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// Reads `SO_PEERCRED` from a connected Unix socket; nil when the kernel does not say.
    static func of(descriptor: Int32) -> PeerCredentials? {
        var credentials = KernelCredentials()
        var length = socklen_t(MemoryLayout<KernelCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }

    /// Reads `SO_PEERCRED` from a connected Unix socket channel.
    static func of(_ channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let socket = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        let credentials: EventLoopFuture<KernelCredentials> = socket.unsafeGetSocketOption(
            level: .socket,
            name: NIOBSDSocket.Option(rawValue: SO_PEERCRED)
        )
        return credentials.map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
    }
}
