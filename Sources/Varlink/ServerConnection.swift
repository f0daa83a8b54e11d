import Logging
import NIOCore

/// Serves one client connection: reads its calls, routes each to its interface and writes the replies.
///
/// Calls are handled one after another. A client that hangs up cancels the call in progress; a client
/// that only closes its sending side still gets the reply to a plain call, but cancels a `more` call.
struct ServerConnection: Sendable {
    private let connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    private let peer: PeerCredentials?
    private let rawBytes: RawByteCount
    private let interfaces: [String: any VarlinkInterface]
    private let serverState: ServerState
    private let logger: Logger

    init(_ accepted: AcceptedConnection, interfaces: [String: any VarlinkInterface], serverState: ServerState,
         logger: Logger) {
        var logger = logger
        if let peer = accepted.peer {
            logger[metadataKey: "varlink.peer.pid"] = "\(peer.pid)"
            logger[metadataKey: "varlink.peer.uid"] = "\(peer.uid)"
        }
        self.connection = accepted.messages
        self.peer = accepted.peer
        self.rawBytes = accepted.rawBytes
        self.interfaces = interfaces
        self.serverState = serverState
        self.logger = logger
    }

    /// Serves until the client is done, hangs up or breaks the protocol, or the task is cancelled; then closes.
    func serve() async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(connection.channel.eventLoop)) { await serveOnItsLoop() }
    }

    private func serveOnItsLoop() async {
        let channel = connection.channel
        serverState.opened(channel)
        defer { serverState.closed(channel) }
        // The body does not throw, and closing errors are not reported: there is nothing to catch.
        try? await connection.executeThenClose { inbound, outbound in
            // Completed when the calls are done, or as soon as the channel closes: the client hung up.
            let stopWatching = channel.eventLoop.makePromise(of: Void.self)
            channel.closeFuture.cascade(to: stopWatching)
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await serveCalls(inbound, outbound)
                    stopWatching.succeed()
                }
                group.addTask {
                    try? await stopWatching.futureResult.get()
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    private func serveCalls(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
        _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async {
        do {
            try await receiveCalls(inbound, outbound)
        } catch is CancellationError {
            logger.debug("Connection cancelled")
        } catch let error as VarlinkFramingError {
            logger.warning("Closing the connection: \(error)")
        } catch {
            logger.debug("Connection failed", metadata: ["error": "\(error)"])
        }
        await flushReplies()
    }

    /// Handles the calls as they arrive until the client ends its input or sends something unreadable, or the
    /// server drains (which closes the connection's input once its call is answered).
    private func receiveCalls(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
        _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws {
        let frames = InboundMessages(inbound)
        var readAhead: ByteBuffer?
        while true {
            let frame: ByteBuffer
            if let message = readAhead.take() {
                frame = message
            } else if let message = try await frames.next() {
                frame = message
            } else {
                return
            }
            switch ReceivedMessage(frame: frame) {
            case .unreadable(let reason):
                logger.warning("Closing the connection after an unreadable message", metadata: ["reason": "\(reason)"])
                return
            case .invalidCall(let error):
                logger.notice("Rejected an invalid call", metadata: ["error": "\(error)"])
                try await outbound.write(OutgoingReply.framed(error))
            case .call(let call) where call.more && !call.oneway:
                serverState.connection(connection.channel, is: .streaming)
                readAhead = try await respondReadingAhead(to: call, outbound: outbound, frames: frames)
                if readAhead == nil {
                    return
                }
            case .call(let call):
                serverState.connection(connection.channel, is: .answering)
                let input = call.upgrade ? VarlinkUpgradedInput(messages: frames, rawBytes: rawBytes) : nil
                await respond(to: call, outbound: outbound, upgradedInput: input)
                if serverState.connection(connection.channel, is: .waiting) { return }
            }
        }
    }

    /// Handles a `more` call while reading the next message, so that the end of input cancels the call.
    ///
    /// - Returns: The message read, or `nil` at the end of input.
    private func respondReadingAhead(
        to call: VarlinkCall,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        frames: InboundMessages
    ) async throws -> ByteBuffer? {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [serverState, channel = connection.channel] in
                await respond(to: call, outbound: outbound)
                // Draining: the stream has ended, and the connection takes no more calls.
                if serverState.connection(channel, is: .waiting) { channel.close(mode: .input, promise: nil) }
            }
            let next = try await frames.next()
            if next == nil {
                group.cancelAll()
            }
            try await group.waitForAll()
            return next
        }
    }

    /// Routes one call to its interface and sees that it gets its final reply, an error if need be.
    private func respond(to call: VarlinkCall, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
                         upgradedInput: VarlinkUpgradedInput? = nil) async {
        var logger = logger
        logger[metadataKey: "varlink.method"] = "\(call.method)"
        let replies = VarlinkReplyWriter(for: call, outbound: outbound, channel: connection.channel)
        let failure: VarlinkError
        do {
            guard let interface = interfaces[call.interface] else {
                throw VarlinkError.interfaceNotFound(call.interface)
            }
            guard !call.upgrade || interface.acceptsUpgrade(call.methodName) else {
                throw VarlinkError.invalidParameter("upgrade")
            }
            let context = VarlinkCallContext(peer: peer, logger: logger, upgradedInput: upgradedInput)
            try await interface.handle(call, context: context, replies: replies)
            // A cancelled call (the client hung up) owes no reply.
            guard !call.oneway, !replies.hasSentFinalReply, !Task.isCancelled else { return }
            logger.error("The handler returned without its final reply")
            failure = Self.internalError(of: call, reason: "the handler returned without its final reply")
        } catch let error as VarlinkError {
            failure = error
        } catch where Task.isCancelled {
            logger.debug("Call cancelled", metadata: ["error": "\(error)"])
            return
        } catch {
            // An upgraded call whose raw bytes broke off (the client hung up) is not the daemon's failure.
            if !(call.upgrade && replies.hasSentFinalReply) { logger.error("Call failed", metadata: ["error": "\(error)"]) }
            failure = Self.internalError(of: call, reason: "\(error)")
        }

        guard !replies.hasSentFinalReply else {
            if call.upgrade {
                // Raw bytes were cut short: what follows on the connection could not be told apart from them.
                logger.debug("An upgraded call failed after its reply", metadata: ["error": "\(failure)"])
                connection.channel.close(promise: nil)
            } else {
                logger.error("The handler failed after its final reply", metadata: ["error": "\(failure)"])
            }
            return
        }
        do {
            try await replies.send(failure)
        } catch {
            logger.debug("Sending the error reply failed", metadata: ["error": "\(error)"])
        }
    }

    /// `<interface>.InternalError(reason)`, the answer to a call whose handler failed with an error that
    /// is not a `VarlinkError`.
    private static func internalError(of call: VarlinkCall, reason: String) -> VarlinkError {
        VarlinkError("\(call.interface).InternalError", parameters: ["reason": .string(reason)])
    }

    /// Waits until the replies written so far have gone to the socket, so that closing loses none.
    private func flushReplies() async {
        let channel = connection.channel
        let flushed = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(ByteBuffer(), promise: flushed)
        await withTaskCancellationHandler {
            try? await flushed.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }
}
