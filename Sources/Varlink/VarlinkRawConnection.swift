import Glibc
import NIOCore
import Synchronization

/// A blocking client connection for upgraded calls (`upgrade: true`): after such a call's reply the connection
/// carries the method's raw bytes, read straight into the caller's memory or written from it, then varlink messages
/// again, so one connection serves transfer after transfer.
///
/// Its calls block the calling thread: use it from a thread of its own, never from Swift's cooperative pool.
/// ``shutDown()`` from another thread ends a transfer in progress (cancellation); the connection is then done.
public final class VarlinkRawConnection: @unchecked Sendable {
    // @unchecked: one thread at a time makes calls and transfers; `shutDown` is safe from any thread.
    private let descriptor: Int32
    /// Bytes received past the end of the last message: the start of raw bytes, or of the next message.
    private var pending: [UInt8] = []
    private let isShutDown = Atomic(false)
    /// The largest reply accepted, in bytes.
    private let maximumMessageSize: Int

    private init(descriptor: Int32, maximumMessageSize: Int) {
        self.descriptor = descriptor
        self.maximumMessageSize = maximumMessageSize
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Connects to the service listening on `socketPath`, trying again for up to ten seconds while its queue of
    /// new connections is full (as ``VarlinkConnection`` does).
    public static func connect(socketPath: String, maximumMessageSize: Int = 16 << 20) throws(VarlinkConnectionError)
        -> VarlinkRawConnection
    {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard socketPath.utf8.count < capacity else {
            throw .cannotConnect(socketPath: socketPath, reason: "the path is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: socketPath.utf8)
            path[socketPath.utf8.count] = 0
        }
        let deadline = ContinuousClock.now + VarlinkConnection.fullQueuePatience
        var pause = Duration.milliseconds(2)
        while true {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw .cannotConnect(socketPath: socketPath, reason: String(cString: strerror(errno))) }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if connected == 0 { return VarlinkRawConnection(descriptor: descriptor, maximumMessageSize: maximumMessageSize) }
            let failure = errno
            Glibc.close(descriptor)
            guard failure == EAGAIN, ContinuousClock.now < deadline else {
                throw .cannotConnect(socketPath: socketPath, reason: String(cString: strerror(failure)))
            }
            usleep(UInt32(pause / .microseconds(1)))
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    /// Makes an upgraded call and returns its reply; the raw bytes the method defines come next.
    ///
    /// - Throws: `VarlinkError` when the server answers with an error (the connection then carries calls again);
    ///   `VarlinkConnectionError` when the connection fails or the reply does not decode as `R`.
    public func call<R: Decodable & Sendable>(_ method: String, parameters: some Encodable & Sendable,
                                              returning: R.Type) throws -> R {
        let message = try OutgoingCall.framed(method: method, parameters: parameters, more: false, upgrade: true)
        try message.withUnsafeReadableBytes { try writeRaw($0) }
        return try readReply(returning: R.self)
    }

    /// Reads one varlink message: a reply, or what a method sends after its raw bytes.
    public func readReply<R: Decodable & Sendable>(returning: R.Type) throws -> R {
        var message: [UInt8] = []
        while true {
            if let end = pending.firstIndex(of: 0) {
                message += pending[..<end]
                pending.removeSubrange(...end)
                break
            }
            message += pending
            pending.removeAll(keepingCapacity: true)
            guard message.count <= maximumMessageSize else {
                throw VarlinkConnectionError.malformedReply("a reply longer than \(maximumMessageSize) bytes")
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = try chunk.withUnsafeMutableBytes { try receive(into: $0) }
            guard count > 0 else { throw VarlinkConnectionError.closed }
            pending = Array(chunk[..<count])
        }
        return try IncomingReply<R>(frame: ByteBuffer(bytes: message)).outcome.get()
    }

    /// Reads raw bytes into `buffer`: at least one, as many as are there; 0 when the server closed the connection.
    public func readRaw(into buffer: UnsafeMutableRawBufferPointer) throws(VarlinkConnectionError) -> Int {
        guard pending.isEmpty else {
            let count = min(pending.count, buffer.count)
            buffer.copyBytes(from: pending[..<count])
            pending.removeSubrange(..<count)
            return count
        }
        return try receive(into: buffer)
    }

    /// Reads exactly `buffer.count` raw bytes.
    /// - Throws: `VarlinkConnectionError.closed` when the connection ends first.
    public func readRaw(exactly buffer: UnsafeMutableRawBufferPointer) throws(VarlinkConnectionError) {
        var filled = 0
        while filled < buffer.count {
            let count = try readRaw(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            guard count > 0 else { throw .closed }
            filled += count
        }
    }

    /// Writes raw bytes, all of them.
    public func writeRaw(_ bytes: UnsafeRawBufferPointer) throws(VarlinkConnectionError) {
        var written = 0
        while written < bytes.count {
            // MSG_NOSIGNAL: a server gone is an error here, not SIGPIPE for the whole program.
            let count = send(descriptor, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
            if count < 0 {
                if errno == EINTR { continue }
                throw .closed
            }
            written += count
        }
    }

    /// The server process at the other end, as the kernel saw it when it accepted the connection.
    public var server: PeerCredentials? { PeerCredentials.of(descriptor: descriptor) }

    /// Ends the connection from any thread: a read or write in progress returns at once with `closed`.
    public func shutDown() {
        isShutDown.store(true, ordering: .relaxed)
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Whether ``shutDown()`` was called.
    public var wasShutDown: Bool { isShutDown.load(ordering: .relaxed) }

    /// Whether an idle connection can still carry a call: not shut down, nothing unread, and the server has not hung
    /// up (a restarted server closed its end; an idle connection has nothing to read otherwise).
    public var isUsable: Bool {
        guard !wasShutDown, pending.isEmpty else { return false }
        var poll = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&poll, 1, 0) == 0
    }

    private func receive(into buffer: UnsafeMutableRawBufferPointer) throws(VarlinkConnectionError) -> Int {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .closed
        }
    }
}
