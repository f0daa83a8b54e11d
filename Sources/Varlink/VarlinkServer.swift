import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The varlink server on a Unix socket.
///
/// Each connection is served by its own task: its calls are handled one after another and answered in
/// order, while other connections go on independently. `org.varlink.service` is served besides the
/// given interfaces.
///
/// It moves from starting to serving, then either drains (``drain()``: no new connections, streams ended by
/// their interfaces, calls in progress finished within ``drainDeadline``) or stops at once when its task is
/// cancelled, and ends stopped.
public struct VarlinkServer: Sendable {
    /// The path of the Unix socket served.
    public let socketPath: String
    /// A listening socket handed over by the service manager (socket activation), served instead of binding
    /// `socketPath`; the server then neither sets the socket file's mode nor removes it.
    public let listeningDescriptor: Int32?
    /// How long draining lets calls in progress run before they are cancelled.
    public let drainDeadline: Duration
    /// The identity returned by `org.varlink.service.GetInfo`.
    public let info: VarlinkServiceInfo
    /// The socket file's mode.
    public let socketPermissions: UInt16
    /// The largest call message accepted, in bytes.
    public let maximumMessageSize: Int
    private let interfaces: [String: any VarlinkInterface]
    private let eventLoopGroup: any EventLoopGroup
    private let state: ServerState
    private let logger: Logger

    /// - Parameters:
    ///   - socketPath: The socket file to bind (and remove when the server stops).
    ///   - info: What `org.varlink.service.GetInfo` answers.
    ///   - interfaces: The interfaces to serve; the last one wins if two have the same name.
    ///   - socketPermissions: The socket file's mode; connecting needs write permission.
    ///   - maximumMessageSize: The largest call message accepted, in bytes; a client that sends a longer one is
    ///     disconnected.
    ///   - listeningDescriptor: A listening socket to serve instead of binding `socketPath`.
    ///   - drainDeadline: How long stopping lets calls in progress run before they are cancelled.
    ///   - eventLoopGroup: The event loops connections are served on.
    ///   - logger: Where the server logs.
    ///   - onConnectionClosed: Called each time a client's connection closes.
    public init(
        socketPath: String,
        listeningDescriptor: Int32? = nil,
        info: VarlinkServiceInfo,
        interfaces: [any VarlinkInterface],
        socketPermissions: UInt16 = 0o666,
        maximumMessageSize: Int = 16 << 20,
        drainDeadline: Duration = .seconds(10),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger,
        onConnectionClosed: @escaping @Sendable () -> Void = {}
    ) {
        let served = Dictionary(interfaces.map { ($0.name, $0) }) { _, last in last }
        self.socketPath = socketPath
        self.listeningDescriptor = listeningDescriptor
        self.drainDeadline = drainDeadline
        self.info = info
        self.interfaces = served.merging([ServiceInterface.name: ServiceInterface(info: info, interfaces: served)]) {
            _, service in service
        }
        self.socketPermissions = socketPermissions
        self.maximumMessageSize = maximumMessageSize
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        state = ServerState(connectionClosed: onConnectionClosed)
    }

    /// Where the server is in its life.
    public var phase: VarlinkServerPhase { state.phase }

    /// Starts draining a running server: it stops accepting, each interface ends its streams, connections close
    /// as their calls are answered, and calls still running after ``drainDeadline`` are cancelled. ``run(onListening:)``
    /// returns when every connection is closed.
    public func drain() {
        state.drain()
    }

    /// Binds (or takes over ``listeningDescriptor``), calls `onListening` once the socket accepts connections,
    /// then serves until drained or until the task is cancelled.
    ///
    /// Binding creates the socket's directory if needed and replaces a stale socket file, but throws
    /// `VarlinkServerError.socketInUse` if another server answers on it. On cancellation the server stops
    /// accepting, cancels the calls in progress, closes the connections and removes its socket file, then
    /// returns.
    public func run(onListening: @Sendable () async -> Void = {}) async throws {
        let socketFile = UnixSocketFile(path: socketPath)
        if listeningDescriptor == nil {
            try socketFile.createParentDirectory(forSocketPermissions: socketPermissions)
            if await Self.isServing(socketPath: socketPath, eventLoopGroup: eventLoopGroup) {
                throw VarlinkServerError.socketInUse(path: socketPath)
            }
        }
        let listenerStop = ListenerStop()
        let listener = try await bind(stoppedBy: listenerStop)
        let identity = listeningDescriptor == nil ? socketFile.identity() : nil
        defer {
            socketFile.remove(ifStill: identity)
            state.advance(to: .stopped)
        }

        // The accept loop runs in a task of its own, which this task's cancellation does not reach: it must take
        // every connection accepted before the listener closed (see `ListenerStop`), and it ends when the listener
        // has closed.
        let acceptLoop = Task { [state, interfaces, logger] in
            try await listener.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        listenerStop.handedOut(connection.messages.channel)
                        group.addTask {
                            await ServerConnection(connection, interfaces: interfaces, serverState: state, logger: logger)
                                .serve()
                        }
                    }
                    // The listener closed. Draining waits for the connections to close; stopping ends them now.
                    if state.phase < .draining { group.cancelAll() }
                }
            }
        }
        if listeningDescriptor == nil {
            do {
                try socketFile.setPermissions(socketPermissions)
            } catch {
                listener.channel.close(promise: nil)
                _ = await acceptLoop.result
                throw error
            }
        }
        let drainDeadlineTimer = Mutex<Scheduled<Void>?>(nil)
        defer { drainDeadlineTimer.withLock { $0?.cancel() } }
        state.whenDraining { [interfaces, logger, drainDeadline] in
            logger.info("Varlink server draining", metadata: ["deadline": "\(drainDeadline)"])
            for interface in interfaces.values { interface.endStreams() }
            listenerStop.stop()
            let timer = listener.channel.eventLoop.scheduleTask(in: TimeAmount(drainDeadline)) { acceptLoop.cancel() }
            drainDeadlineTimer.withLock { $0 = timer }
        }
        state.advance(to: .serving)
        logger.debug("Varlink server listening", metadata: ["socket": .string(socketPath)])
        await onListening()
        try await withTaskCancellationHandler {
            try await acceptLoop.value
        } onCancel: {
            listenerStop.stop()
        }
        logger.info("Varlink server stopped", metadata: ["socket": .string(socketPath)])
    }

    /// Whether a live server accepts connections on `socketPath`.
    public static func isServing(socketPath: String,
                                 eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async -> Bool {
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

    private func bind(stoppedBy listenerStop: ListenerStop) async throws -> NIOAsyncChannel<AcceptedConnection, Never> {
        let maximumMessageSize = maximumMessageSize
        let initialize: @Sendable (any Channel) -> EventLoopFuture<AcceptedConnection> = { channel in
            listenerStop.settingUp(channel)
            let rawBytes = RawByteCount()
            return PeerCredentials.of(channel)
                .map(Optional.some)
                .recover { _ in nil }
                .flatMapThrowing { peer in
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(VarlinkFrameDecoder(maximumMessageSize: maximumMessageSize, rawBytes: rawBytes))
                    )
                    return AcceptedConnection(
                        messages: try NIOAsyncChannel(wrappingChannelSynchronously: channel),
                        peer: peer,
                        rawBytes: rawBytes
                    )
                }
                .always { result in
                    if case .failure = result { listenerStop.handedOut(channel) }
                }
        }
        let bootstrap = ServerBootstrap(group: eventLoopGroup)
            // Room for a burst of clients (a thousand observers connecting at once); the kernel caps it at
            // net.core.somaxconn.
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelInitializer { listener in
                listener.eventLoop.makeCompletedFuture {
                    try listener.pipeline.syncOperations.addHandler(listenerStop.handler(for: listener))
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
        if let listeningDescriptor {
            return try await bootstrap.bind(listeningDescriptor, childChannelInitializer: initialize)
        }
        return try await bootstrap.bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true,
                                        childChannelInitializer: initialize)
    }
}

/// A connection as accepted: its message stream, who is at the other end, and its decoder's count of raw bytes.
struct AcceptedConnection: Sendable {
    let messages: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    let peer: PeerCredentials?
    let rawBytes: RawByteCount
}
