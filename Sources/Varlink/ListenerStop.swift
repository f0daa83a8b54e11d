import NIOCore
import Synchronization

/// Closes a server's listening socket without dropping a connection it accepted.
///
/// A connection accepted but not yet handed to the accept loop when the listener closes is dropped, and NIO traps on
/// its unclosed channel (swift-nio#2813). So each connection is counted from its accept, on the listener's event loop,
/// until the accept loop takes it, its set-up fails, or it closes before its set-up began (NIO could not register it);
/// ``stop()`` stops the listener reading (no more accepts) and closes it on its event loop once no connection is in
/// between, at once or when the last one is handed out.
final class ListenerStop: Sendable {
    private struct State {
        /// Accepted connections the accept loop has not taken, each with whether its set-up began.
        var inBetween: [ObjectIdentifier: Bool] = [:]
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

    /// The server began setting `connection` up: from now on it is waited for until handed out, even once closed.
    func settingUp(_ connection: any Channel) {
        state.withLock { state in
            if state.inBetween[ObjectIdentifier(connection)] != nil { state.inBetween[ObjectIdentifier(connection)] = true }
        }
    }

    /// The accept loop took `connection`, or setting it up failed.
    func handedOut(_ connection: any Channel) {
        forget(connection) { _ in true }
    }

    private func accepted(_ connection: any Channel) {
        state.withLock { $0.inBetween[ObjectIdentifier(connection)] = false }
        // NIO closes a connection it cannot register, and never hands it on.
        connection.closeFuture.whenComplete { _ in self.forget(connection) { settingUp in !settingUp } }
    }

    /// Stops waiting for `connection` if `applies` to whether its set-up began; closes a stopping listener once none
    /// is left in between.
    private func forget(_ connection: any Channel, if applies: (Bool) -> Bool) {
        let listener: (any Channel)? = state.withLock { state in
            guard let settingUp = state.inBetween[ObjectIdentifier(connection)], applies(settingUp) else { return nil }
            state.inBetween[ObjectIdentifier(connection)] = nil
            return state.isStopping && state.inBetween.isEmpty ? state.listener : nil
        }
        if let listener { closeWhenNoneInBetween(listener) }
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
