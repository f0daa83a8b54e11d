import CompactJSON
import NIOCore
import NIOPosix

/// The client's connection failed, or the server broke the protocol.
public enum VarlinkConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Connecting to the socket failed: no server, or no permission.
    case cannotConnect(socketPath: String, reason: String)
    /// The connection closed, from either side, before the reply arrived.
    case closed
    /// A reply was not a varlink reply, or its parameters did not decode as the expected type.
    case malformedReply(String)

    public var description: String {
        switch self {
        case .cannotConnect(let socketPath, let reason): "Cannot connect to varlink socket \(socketPath): \(reason)"
        case .closed: "The varlink connection is closed"
        case .malformedReply(let reason): "Malformed varlink reply: \(reason)"
        }
    }
}

/// A client connection to a varlink service.
///
/// Calls may be made from several tasks at once; they go out one after another, each waiting for the
/// previous call's last reply (a stream holds the connection until its last reply). Open several
/// connections to run calls in parallel. Cancelling the task of a call in progress closes the connection,
/// since its reply could no longer be told from the next one's; a task already cancelled when it calls
/// gets `CancellationError` and leaves the connection alone.
public final class VarlinkConnection: Sendable {
    private let channel: any Channel
    private let requests: AsyncStream<ConnectionRequest>.Continuation
    /// Owns the channel's message streams, which must stay in one task, for as long as the connection
    /// lives: a task of its own because the connection outlives the caller's scope.
    private let exchanges: Task<Void, Never>

    private init(_ messages: NIOAsyncChannel<ReplyPart, ByteBuffer>) {
        let (requestStream, requests) = AsyncStream.makeStream(of: ConnectionRequest.self)
        self.channel = messages.channel
        self.requests = requests
        self.exchanges = Task(executorPreference: EventLoopTaskExecutor(messages.channel.eventLoop)) {
            await Self.exchangeMessages(over: messages, serving: requestStream)
        }
    }

    deinit {
        requests.finish()
    }

    /// How long `connect` keeps trying while the server's queue of connections not yet accepted is full: a Unix
    /// socket refuses at once (EAGAIN) then, where a TCP one would wait, so a burst of clients would fail.
    static let fullQueuePatience = Duration.seconds(10)

    /// Connects to the service listening on `socketPath`, waiting up to ten seconds while its queue of new
    /// connections is full.
    ///
    /// - Parameters:
    ///   - socketPath: The server's socket file.
    ///   - eventLoopGroup: The event loops the connection runs on.
    ///   - maximumMessageSize: The largest reply accepted, in bytes; a longer one closes the connection.
    ///     Replies may carry whole results (the ids of a million assets are about 40 MB), hence the default 1 GiB.
    public static func connect(
        socketPath: String,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        maximumMessageSize: Int = 1 << 30
    ) async throws -> VarlinkConnection {
        let deadline = ContinuousClock.now + fullQueuePatience
        var pause = Duration.milliseconds(2)
        while true {
            do {
                return try await open(socketPath: socketPath, eventLoopGroup: eventLoopGroup,
                                      maximumMessageSize: maximumMessageSize)
            } catch let error as IOError where error.errnoCode == EAGAIN && ContinuousClock.now < deadline {
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(100))
            } catch {
                throw VarlinkConnectionError.cannotConnect(socketPath: socketPath, reason: "\(error)")
            }
        }
    }

    private static func open(socketPath: String, eventLoopGroup: any EventLoopGroup,
                             maximumMessageSize: Int) async throws -> VarlinkConnection {
        // Replies of hundreds of kilobytes (asset pages, snapshots) arrive in a few large reads, not dozens.
        let reads = AdaptiveRecvByteBufferAllocator(minimum: 4096, initial: 65536, maximum: 1 << 20)
        let messages = try await ClientBootstrap(group: eventLoopGroup)
            .channelOption(ChannelOptions.recvAllocator, value: reads)
            .connect(unixDomainSocketPath: socketPath) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(VarlinkReplyDecoder(maximumMessageSize: maximumMessageSize))
                )
                return try NIOAsyncChannel<ReplyPart, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        return VarlinkConnection(messages)
    }

    /// One call, one reply.
    ///
    /// - Throws: `VarlinkError` when the server answers with an error; `VarlinkConnectionError` when the
    ///   connection closes first or the reply does not decode as `R`.
    public func call<R: Decodable & Sendable>(
        _ method: String,
        parameters: some Encodable & Sendable,
        returning: R.Type
    ) async throws -> R {
        let message = try OutgoingCall.framed(method: method, parameters: parameters, more: false)
        let frame = try await request { .call(PendingCall(message: message, replies: .single($0))) }
        return try IncomingReply<R>(frame: frame).outcome.get()
    }

    /// One call whose reply leads with a long array (`JSONArrayLedObject`): its elements are read one by one as the
    /// reply arrives, while the server is still writing the rest; as `call(_:parameters:returning:)` otherwise.
    public func call<R: JSONArrayLedObject & Decodable & Sendable>(
        _ method: String,
        parameters: some Encodable & Sendable,
        readingAsItArrives: R.Type
    ) async throws -> R {
        let message = try OutgoingCall.framed(method: method, parameters: parameters, more: false)
        // Read on the event loop as the parts arrive, as a decoder would, without a hop to this task for each.
        let reader = ArrayLedReplyReader<R>()
        try await request { received in .call(PendingCall(message: message, replies: .parts(append: reader.append, received: received))) }
        return try reader.finish().outcome.get()
    }

    /// One call, one reply, with untyped parameters.
    public func call(_ method: String, parameters: JSONValue = [:]) async throws -> JSONValue {
        try await call(method, parameters: parameters, returning: JSONValue.self)
    }

    /// A `more: true` call: yields each reply, and finishes after the reply without `continues`.
    ///
    /// The call is sent when iteration starts. An error reply is thrown by the iteration. Cancelling the
    /// iteration, or dropping the stream before its last reply, closes the connection.
    public func stream<R: Decodable & Sendable>(
        _ method: String,
        parameters: some Encodable & Sendable,
        returning: R.Type
    ) -> AsyncThrowingStream<R, any Error> {
        let replies: ReplyStream<R>
        do {
            replies = ReplyStream(
                call: try OutgoingCall.framed(method: method, parameters: parameters, more: true),
                connection: self
            )
        } catch {
            return AsyncThrowingStream { throw error }
        }
        return AsyncThrowingStream { try await replies.next() }
    }

    /// Whether the connection is still open: false once either side closed it (the server stopped, say).
    public var isOpen: Bool { channel.isActive }

    /// Closes the connection; a call or stream in progress fails with `VarlinkConnectionError.closed`.
    public func close() async {
        requests.finish()
        channel.close(promise: nil)
        await exchanges.value
    }

    /// Sends `streamCall` and waits until it is written.
    func open(streamCall message: ByteBuffer) async throws {
        try await request { .call(PendingCall(message: message, replies: .stream(opened: $0))) }
    }

    /// The next reply of the open stream.
    func nextStreamReply() async throws -> ByteBuffer {
        try await request { .nextStreamReply($0) }
    }

    /// Ends the open stream, letting the next call go out; `closingConnection` when the stream did not
    /// get to its last reply, which would otherwise be taken for the next call's.
    func endStream(closingConnection: Bool) {
        if closingConnection {
            channel.close(promise: nil)
        }
        requests.yield(.streamEnded)
    }

    /// Hands a request to the exchange task and waits for its outcome.
    ///
    /// A task cancelled before the request throws `CancellationError`; cancelled while waiting, it closes
    /// the connection.
    private func request<Outcome: Sendable>(
        _ makeRequest: (CheckedContinuation<Outcome, any Error>) -> ConnectionRequest
    ) async throws -> Outcome {
        try Task.checkCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { outcome in
                if case .terminated = requests.yield(makeRequest(outcome)) {
                    outcome.resume(throwing: VarlinkConnectionError.closed)
                }
            }
        } onCancel: { [channel] in
            channel.close(promise: nil)
        }
    }

    /// Serves the requests in order over the channel until the connection is closed or dropped.
    private static func exchangeMessages(
        over messages: NIOAsyncChannel<ReplyPart, ByteBuffer>,
        serving requests: AsyncStream<ConnectionRequest>
    ) async {
        let channel = messages.channel
        try? await messages.executeThenClose { inbound, outbound in
            var replies = inbound.makeAsyncIterator()

            /// Reads the next part of a reply; a failure to read closes the channel, whose state is unknown.
            func nextPart() async throws -> ReplyPart {
                do {
                    guard let part = try await replies.next() else { throw VarlinkConnectionError.closed }
                    return part
                } catch {
                    channel.close(promise: nil)
                    throw error
                }
            }

            /// Reads the next reply whole.
            func nextReply() async -> Result<ByteBuffer, any Error> {
                do {
                    var part = try await nextPart()
                    var reply = part.bytes
                    while !part.isLast {
                        part = try await nextPart()
                        reply.writeImmutableBuffer(part.bytes)
                    }
                    return .success(reply)
                } catch {
                    return .failure(error)
                }
            }

            /// Hands on the parts of the next reply as they arrive.
            func passParts(to append: (ByteBuffer) -> Void) async -> Result<Void, any Error> {
                do {
                    var part: ReplyPart
                    repeat {
                        part = try await nextPart()
                        append(part.bytes)
                    } while !part.isLast
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }

            /// Writes a call and, for a plain call, reads its reply. Returns whether the call opened a stream.
            func send(_ call: PendingCall) async -> Bool {
                do {
                    try await outbound.write(call.message)
                } catch {
                    call.replies.fail(VarlinkConnectionError.closed)
                    return false
                }
                switch call.replies {
                case .single(let reply):
                    reply.resume(with: await nextReply())
                    return false
                case .parts(let append, let received):
                    received.resume(with: await passParts(to: append))
                    return false
                case .stream(let opened):
                    opened.resume()
                    return true
                }
            }

            var callsWaitingForStream: [PendingCall] = []
            var streamIsOpen = false
            for await request in requests {
                switch request {
                case .call(let call) where streamIsOpen:
                    callsWaitingForStream.append(call)
                case .call(let call):
                    streamIsOpen = await send(call)
                case .nextStreamReply(let reply):
                    reply.resume(with: await nextReply())
                case .streamEnded:
                    streamIsOpen = false
                    while !streamIsOpen, !callsWaitingForStream.isEmpty {
                        streamIsOpen = await send(callsWaitingForStream.removeFirst())
                    }
                }
            }
            for call in callsWaitingForStream {
                call.replies.fail(VarlinkConnectionError.closed)
            }
        }
    }
}
