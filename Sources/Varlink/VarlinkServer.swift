import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The varlink server on a Unix socket.
///
/// Each connection is served by its own task: its calls are handled one after another and answered in
/// order, while other connections go on independently. `org.varlink.service` is served besides the
/// given interfaces.
public struct VarlinkServer: Sendable {
    /// The path of the Unix socket served.
    public let socketPath: String
    /// The identity returned by `org.varlink.service.GetInfo`.
    public let info: VarlinkServiceInfo
    /// The socket file's mode.
    public let socketPermissions: UInt16
    /// The largest call message accepted, in bytes.
    public let maximumMessageSize: Int
    private let interfaces: [String: any VarlinkInterface]
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger

    /// - Parameters:
    ///   - interfaces: The interfaces to serve; the last one wins if two have the same name.
    ///   - socketPermissions: The socket file's mode; connecting needs write permission.
    ///   - maximumMessageSize: The largest call message accepted, in bytes; a client that sends a longer one is
    ///     disconnected.
    public init(
        socketPath: String,
        info: VarlinkServiceInfo,
        interfaces: [any VarlinkInterface],
        socketPermissions: UInt16 = 0o666,
        maximumMessageSize: Int = 16 << 20,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger
    ) {
        let served = Dictionary(interfaces.map { ($0.name, $0) }) { _, last in last }
        self.socketPath = socketPath
        self.info = info
        self.interfaces = served.merging([ServiceInterface.name: ServiceInterface(info: info, interfaces: served)]) {
            _, service in service
        }
        self.socketPermissions = socketPermissions
        self.maximumMessageSize = maximumMessageSize
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Binds, calls `onListening` once the socket accepts connections, then serves until the task is cancelled.
    ///
    /// Binding creates the socket's directory if needed and replaces a stale socket file, but throws
    /// `VarlinkServerError.socketInUse` if another server answers on it. On cancellation the server stops
    /// accepting, cancels the calls in progress, closes the connections and removes its socket file, then
    /// returns.
    public func run(onListening: @Sendable () async -> Void = {}) async throws {
        let socketFile = UnixSocketFile(path: socketPath)
        try socketFile.createParentDirectory()
        if await answersOnSocket() {
            throw VarlinkServerError.socketInUse(path: socketPath)
        }
        let accepting = AcceptedConnections()
        let listener = try await bind(counting: accepting)
        let identity = socketFile.identity()
        defer { socketFile.remove(ifStill: identity) }

        // A connection accepted but not yet handed out when the listener closes is dropped, and NIO traps
        // on its unclosed channel (swift-nio#2813). So the accept loop runs in a task of its own, which this
        // task's cancellation does not reach, and stopping first stops accepting, waits until every
        // accepted connection has been handed out, and only then closes the listener.
        let acceptLoop = Task {
            try await listener.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        accepting.handedOut()
                        group.addTask {
                            await ServerConnection(connection, interfaces: interfaces, logger: logger).serve()
                        }
                    }
                    // The listener closed: the server is stopping.
                    group.cancelAll()
                }
            }
        }
        do {
            try socketFile.setPermissions(socketPermissions)
        } catch {
            listener.channel.close(promise: nil)
            _ = await acceptLoop.result
            throw error
        }
        logger.info("Varlink server listening", metadata: ["socket": .string(socketPath)])
        await onListening()
        try await withTaskCancellationHandler {
            try await acceptLoop.value
        } onCancel: {
            Task { await Self.stopAccepting(listener.channel, accepting: accepting) }
        }
        logger.info("Varlink server stopped", metadata: ["socket": .string(socketPath)])
    }

    /// Whether a live server accepts connections on the socket path.
    private func answersOnSocket() async -> Bool {
        do {
            let channel = try await ClientBootstrap(group: eventLoopGroup).connect(unixDomainSocketPath: socketPath) {
                channel in channel.eventLoop.makeSucceededFuture(channel)
            }
            try? await channel.close()
            return true
        } catch {
            return false
        }
    }

    /// Stops taking new connections, lets accepts already under way finish, waits (a second at most) until
    /// every accepted connection is handed out, then closes the listener, which ends the accept loop.
    private static func stopAccepting(_ listener: any Channel, accepting: AcceptedConnections) async {
        _ = try? await listener.setOption(ChannelOptions.autoRead, value: false).get()
        try? await Task.sleep(for: .milliseconds(100))
        for _ in 0..<200 where accepting.pending > 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        try? await listener.close()
    }

    private func bind(counting accepting: AcceptedConnections) async throws -> NIOAsyncChannel<AcceptedConnection, Never> {
        let maximumMessageSize = maximumMessageSize
        return try await ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.backlog, value: 256)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true) { channel in
                accepting.accepted()
                return PeerCredentials.of(channel)
                    .map(Optional.some)
                    .recover { _ in nil }
                    .flatMapThrowing { peer in
                        try channel.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(VarlinkFrameDecoder(maximumMessageSize: maximumMessageSize))
                        )
                        return AcceptedConnection(
                            messages: try NIOAsyncChannel(wrappingChannelSynchronously: channel),
                            peer: peer
                        )
                    }
                    .always { result in
                        if case .failure = result { accepting.handedOut() }
                    }
            }
    }
}

/// Counts connections accepted but not yet handed to the accept loop.
final class AcceptedConnections: Sendable {
    private let count = Atomic<Int>(0)

    var pending: Int { count.load(ordering: .acquiring) }

    func accepted() { count.add(1, ordering: .acquiringAndReleasing) }

    /// Called once per accepted connection: when the accept loop receives it, or when setting it up failed.
    func handedOut() { count.subtract(1, ordering: .acquiringAndReleasing) }
}

/// A connection as accepted: its message stream and who is at the other end.
struct AcceptedConnection: Sendable {
    let messages: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    let peer: PeerCredentials?
}
