import CompactJSON
import NIOPosix
import Synchronization
import Testing
import Varlink

/// `org.example.size`: one method whose reply claims the size asked for and notes where it was written.
final class ReplySizeInterface: VarlinkInterface {
    let name = "org.example.size"
    let description = """
        interface org.example.size

        method Reply(estimated: int) -> (writtenOnEventLoop: bool)
        """

    /// Whether each reply was written on an event loop, in the order written.
    let writtenOnEventLoop = Mutex<[Bool]>([])

    /// A reply as small as it is, whatever size it says it will take.
    struct Estimated: JSONWritable, Sendable {
        let estimatedByteCount: Int
        let interface: ReplySizeInterface

        func write(to json: inout JSONWriter) {
            let onLoop = MultiThreadedEventLoopGroup.currentEventLoop != nil
            interface.writtenOnEventLoop.withLock { $0.append(onLoop) }
            json.beginObject()
            json.key("writtenOnEventLoop"); json.bool(onLoop)
            json.endObject()
        }
    }

    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        let estimated = try call.decodeParameters([String: Int].self)["estimated"] ?? 0
        try await replies.send(json: Estimated(estimatedByteCount: estimated, interface: self))
    }
}

/// A large reply is written off the event loop its connection is served on, which other connections share.
@Suite(.timeLimit(.minutes(2))) struct LargeReplyTests {
    @Test func aReplyOfAMebibyteOrMoreIsWrittenOffTheEventLoopAndASmallOneOnIt() async throws {
        let interface = ReplySizeInterface()
        try await withServer([interface]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            for (estimated, expectedOnLoop) in [(100, true), (VarlinkReplyWriter.largeReplyByteCount, false),
                                                (40 << 20, false), (4096, true)] {
                let reply = try await connection.call("org.example.size.Reply", parameters: ["estimated": .int(estimated)])
                #expect(reply == ["writtenOnEventLoop": .bool(expectedOnLoop)], "estimated \(estimated) bytes")
            }
            await connection.close()
        }
        #expect(interface.writtenOnEventLoop.withLock { $0 } == [true, false, false, true])
    }
}
