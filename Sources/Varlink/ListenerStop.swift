import NIOCore
import Synchronization

/// Closes a server's listening socket without dropping a connection it accepted.
///
/// A connection accepted but not yet handed to the accept loop when the listener closes is dropped, and NIO traps on
/// its unclosed channel (swift-nio#2813). So each connection is counted from its accept, on the listener's event loop,
/// until the accept loop takes it or it closes; ``stop()`` stops the listener reading (no more accepts) and closes it
/// on its event loop once no connection is in between, at once or when the last one is handed out.
final class ListenerStop: Sendable {
    private struct State {
        var inBetween: Set<ObjectIdentifier> = []
        var isStopping = false
        var listener: (any Channel)?
    }

    private let state = Mutex(State())

    /// The handler that counts the listener's accepts and stops its reads; added first in its pipeline.
    func handler(for listener: any Channel) -> some ChannelDuplexHandler {
        state.withLock { $0.listener = listener }
        return Gate(stop: self)
    }

    /// Stops accepting and closes the listener as soon as every accepted connection is handed out.
    func stop() {
        let listener = state.withLock { state in
            state.isStopping = true
            return state.listener
        }
        if let listener { closeWhenNoneInBetween(listener) }
    }

    /// The accept loop took `connection` (or setting it up failed).
    func handedOut(_ connection: any Channel) {
        let listener: (any Channel)? = state.withLock { state in
            guard state.inBetween.remove(ObjectIdentifier(connection)) != nil, state.isStopping, state.inBetween.isEmpty
            else { return nil }
            return state.listener
        }
        if let listener { closeWhenNoneInBetween(listener) }
    }

    private func accepted(_ connection: any Channel) {
        _ = state.withLock { $0.inBetween.insert(ObjectIdentifier(connection)) }
        // One that closes before the accept loop takes it (NIO failed to register it) is not waited for.
        connection.closeFuture.whenComplete { _ in self.handedOut(connection) }
    }

    private var isStopping: Bool { state.withLock { $0.isStopping } }

    /// On the listener's event loop, where accepts happen: none can come between the check and the close.
    private func closeWhenNoneInBetween(_ listener: any Channel) {
        listener.eventLoop.execute {
            guard self.state.withLock({ $0.inBetween.isEmpty }) else { return }
            listener.close(promise: nil)
        }
    }

    private final class Gate: ChannelDuplexHandler, Sendable {
        typealias InboundIn = any Channel
        typealias InboundOut = any Channel
        typealias OutboundIn = Never

        private let stop: ListenerStop

        init(stop: ListenerStop) {
            self.stop = stop
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            stop.accepted(unwrapInboundIn(data))
            context.fireChannelRead(data)
        }

        /// A stopping listener reads no more: no connection is accepted after ``ListenerStop/stop()``'s close is decided.
        func read(context: ChannelHandlerContext) {
            guard !stop.isStopping else { return }
            context.read()
        }
    }
}
