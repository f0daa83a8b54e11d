import NIOCore
import Synchronization

// varlink's `upgrade` (varlink.org): after the reply to a call made with `"upgrade": true`, the connection carries
// the method's own protocol. Here that protocol is raw bytes of a length the method's reply (or call) states, after
// which the connection carries varlink messages again: a file's bytes from the server, or an upload's from the client.

/// How many of the bytes arriving next are an upgraded call's raw bytes, not varlink messages: shared by the
/// connection's frame decoder, which passes them through unframed, and the call's handler, which expects them.
final class RawByteCount: Sendable {
    private let remaining = Mutex(0)

    /// From now on, the next `count` bytes received are raw.
    func expect(_ count: Int) {
        remaining.withLock { $0 = count }
    }

    /// Counts off up to `available` raw bytes; nil when none are expected.
    func take(upTo available: Int) -> Int? {
        remaining.withLock { remaining in
            guard remaining > 0 else { return nil }
            let count = min(remaining, available)
            remaining -= count
            return count
        }
    }
}

/// The messages received on one connection, read by the connection's task and, during an upgraded call, by the
/// call's handler (which runs in that task while the connection waits for it).
final class InboundMessages: @unchecked Sendable {
    // @unchecked: only the connection's task reads, one call at a time.
    private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator

    init(_ stream: NIOAsyncChannelInboundStream<ByteBuffer>) {
        iterator = stream.makeAsyncIterator()
    }

    /// The next message (or chunk of raw bytes); nil at the end of input.
    func next() async throws -> ByteBuffer? {
        try await iterator.next()
    }
}

/// The raw bytes a client sends after the reply to its upgraded call, as a handler receives them.
public struct VarlinkUpgradedInput: Sendable {
    private let messages: InboundMessages
    private let rawBytes: RawByteCount

    init(messages: InboundMessages, rawBytes: RawByteCount) {
        self.messages = messages
        self.rawBytes = rawBytes
    }

    /// Takes the next `count` bytes received for raw bytes, not varlink messages. Call it before sending the reply
    /// that asks the client for them: the client sends them once it has that reply.
    public func expect(_ count: Int) {
        rawBytes.expect(count)
    }

    /// Reads the `count` raw bytes announced with `expect`, passing each chunk to `receive` as it arrives.
    ///
    /// - Throws: `VarlinkConnectionError.closed` when the client hangs up first; what `receive` throws. Either way
    ///   the connection can no longer be trusted and is closed after the call.
    public func receive(_ count: Int, _ receive: (ByteBuffer) async throws -> Void) async throws {
        var received = 0
        do {
            while received < count {
                guard let chunk = try await messages.next() else { throw VarlinkConnectionError.closed }
                received += chunk.readableBytes
                try await receive(chunk)
            }
        } catch {
            rawBytes.expect(0)
            throw error
        }
    }
}
