import NIOCore
import NIOPosix

/// What a caller asks of the exchange task.
enum ConnectionRequest: Sendable {
    /// Send a call.
    case call(PendingCall)
    /// Read the open stream's next reply.
    case nextStreamReply(CheckedContinuation<ByteBuffer, any Error>)
    /// The open stream got its last reply or was given up.
    case streamEnded
}

/// A call waiting to be sent, and who waits for what comes back.
struct PendingCall: Sendable {
    enum Replies: Sendable {
        /// Waits for the one reply.
        case single(CheckedContinuation<ByteBuffer, any Error>)
        /// Waits until the call is sent, then asks for each reply.
        case stream(opened: CheckedContinuation<Void, any Error>)
        /// Hands the one reply's parts to `append` as they arrive, on the connection's event loop, then resumes.
        case parts(append: @Sendable (ByteBuffer) -> Void, received: CheckedContinuation<Void, any Error>)

        func fail(_ error: any Error) {
            switch self {
            case .single(let reply): reply.resume(throwing: error)
            case .stream(let opened): opened.resume(throwing: error)
            case .parts(_, let received): received.resume(throwing: error)
            }
        }
    }

    let message: ByteBuffer
    let replies: Replies
}

/// The client side of one `more` call: sends it on the first pull, then reads its replies one at a time.
actor ReplyStream<Reply: Decodable & Sendable> {
    private enum State {
        case unsent(ByteBuffer)
        case streaming
        case finished
    }

    private var state: State
    private let connection: VarlinkConnection

    init(call: ByteBuffer, connection: VarlinkConnection) {
        self.state = .unsent(call)
        self.connection = connection
    }

    deinit {
        if case .streaming = state {
            connection.endStream(closingConnection: true)
        }
    }

    func next() async throws -> Reply? {
        switch state {
        case .finished:
            return nil
        case .unsent(let call):
            state = .finished
            try await connection.open(streamCall: call)
            state = .streaming
        case .streaming:
            break
        }
        let reply: IncomingReply<Reply>
        do {
            reply = try IncomingReply(frame: try await connection.nextStreamReply())
        } catch {
            end(closingConnection: true)
            throw error
        }
        if case .failure = reply.outcome {
            end(closingConnection: false)
        } else if !reply.continues {
            end(closingConnection: false)
        }
        return try reply.outcome.get()
    }

    private func end(closingConnection: Bool) {
        state = .finished
        connection.endStream(closingConnection: closingConnection)
    }
}
