import CompactJSON
import NIOCore
import Synchronization

/// The parameters of one reply, written and sent in parts: what the writes add goes out as soon as it makes a part
/// worth sending, so that the client reads the start of a long reply while the rest is still being made. See
/// `VarlinkReplyWriter.send(inParts:)`.
///
/// Writes may come from any thread; they go out in the order they are made.
public final class VarlinkReplyParts: Sendable {
    private struct State {
        var json = JSONWriter(capacity: 1 << 16)
        var hasBegun = false
        var hasSent = false

        /// Begins the reply unless it has begun; returns whether it began here.
        mutating func begin() -> Bool {
            guard !hasBegun else { return false }
            json.beginReply()
            hasBegun = true
            return true
        }
    }

    private let channel: (any Channel)?
    private let state = Mutex(State())

    /// Parts for `channel`, or parts that go nowhere (the reply to a `oneway` call).
    init(channel: (any Channel)?) {
        self.channel = channel
    }

    /// Writes more of the parameters with `body`, which is told whether it writes their start, and sends what is
    /// written once it is `partByteCount` or more: a short reply goes out whole, at the end.
    public func write(_ body: (_ json: inout JSONWriter, _ isFirst: Bool) -> Void) {
        state.withLock { state in
            body(&state.json, state.begin())
            guard state.json.bytes.count >= Self.partByteCount else { return }
            state.hasSent = true
            channel?.writeAndFlush(ByteBuffer(bytes: state.json.bytes), promise: nil)
            state.json.discardWritten()
        }
    }

    /// The least that goes out as a part before the end of the reply.
    static let partByteCount = 1 << 14

    /// Whether a part has gone out, after which the reply can no longer be replaced by an error.
    var hasSent: Bool { state.withLock { $0.hasSent } }

    /// Ends the reply after its parameters (`{}` if none were written) and waits until it is written to the socket.
    func finish(continues: Bool) async throws {
        let message = state.withLock { state in
            if state.begin() { state.json.beginObject(); state.json.endObject() }
            state.json.endReply(continues: continues)
            var message = ByteBuffer()
            message.writeVarlinkMessage(json: state.json.bytes)
            state.json.discardWritten()
            return message
        }
        try await channel?.writeAndFlush(message).get()
    }
}
