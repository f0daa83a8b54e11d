import NIOCore
import Synchronization

/// Where a server is in its life. It only moves forward.
public enum VarlinkServerPhase: Int, Sendable, Comparable {
    /// Taking its socket; not yet accepting.
    case starting
    /// Accepting connections and answering calls.
    case serving
    /// No longer accepting: streams are being ended and calls in progress finish, within a deadline.
    case draining
    /// Every connection is closed.
    case stopped

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The server's phase and its open connections, which draining reaches.
final class ServerState: Sendable {
    /// What a connection is doing, as far as draining cares.
    enum Activity { case waiting, answering, streaming }

    private struct Connection {
        var channel: any Channel
        var activity: Activity
    }

    private struct State {
        var phase = VarlinkServerPhase.starting
        var connections: [ObjectIdentifier: Connection] = [:]
        /// What the running server does when it starts draining.
        var drainAction: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    /// Called each time a connection closes.
    private let connectionClosed: @Sendable () -> Void

    init(connectionClosed: @escaping @Sendable () -> Void = {}) {
        self.connectionClosed = connectionClosed
    }

    var phase: VarlinkServerPhase { state.withLock { $0.phase } }

    /// Moves to `phase` unless the server is already there or beyond; returns whether it moved.
    @discardableResult
    func advance(to phase: VarlinkServerPhase) -> Bool {
        state.withLock { state in
            guard state.phase < phase else { return false }
            state.phase = phase
            return true
        }
    }

    func opened(_ channel: any Channel) {
        state.withLock { $0.connections[ObjectIdentifier(channel)] = Connection(channel: channel, activity: .waiting) }
    }

    func closed(_ channel: any Channel) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
        connectionClosed()
    }

    /// Records what a connection does now; returns whether the server is draining, in which case a connection
    /// that finished a call takes no more.
    @discardableResult
    func connection(_ channel: any Channel, is activity: Activity) -> Bool {
        state.withLock { state in
            state.connections[ObjectIdentifier(channel)]?.activity = activity
            return state.phase >= .draining
        }
    }

    /// Sets what `drain()` does besides closing the quiet connections' input.
    func whenDraining(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.drainAction = action }
    }

    /// Moves to draining (once, and only from serving) and closes the input of every connection that waits for a
    /// call or answers one: each ends once its call is answered. Streaming calls are left to their interfaces to
    /// end, through the action set by `whenDraining`.
    func drain() {
        let (quiet, action): ([any Channel], (@Sendable () -> Void)?) = state.withLock { state in
            guard state.phase == .serving else { return ([], nil) }
            state.phase = .draining
            return (state.connections.values.filter { $0.activity != .streaming }.map(\.channel), state.drainAction)
        }
        for channel in quiet { channel.close(mode: .input, promise: nil) }
        action?()
    }
}
