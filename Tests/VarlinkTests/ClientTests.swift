import CompactJSON
import Foundation
import NIOPosix
import Testing
import Varlink

/// The client connection against a running server.
@Suite(.timeLimit(.minutes(5))) struct ClientTests {
    @Test func concurrentCallsOnOneConnectionEachGetTheirOwnReply() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
                for a in 0..<50 {
                    group.addTask {
                        (a, try await connection.call("org.example.test.Add", parameters: ["a": .int(a), "b": 1000]))
                    }
                }
                for try await (a, reply) in group {
                    #expect(reply == ["sum": .int(a + 1000)])
                }
            }
            await connection.close()
        }
    }

    @Test func aCallMadeDuringAStreamGoesOutAfterTheStreamEnds() async throws {
        struct Counter: Decodable, Sendable { let i: Int }
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            var replies = connection.stream("org.example.test.Count", parameters: ["n": 3], returning: Counter.self)
                .makeAsyncIterator()
            #expect(try await replies.next()?.i == 0)
            async let echoed = connection.call("org.example.test.Echo", parameters: ["value": "after"])
            #expect(try await replies.next()?.i == 1)
            #expect(try await replies.next()?.i == 2)
            #expect(try await replies.next() == nil)
            #expect(try await echoed == ["value": "after"])
            await connection.close()
        }
    }

    @Test func anErrorReplyEndsAStreamAndTheConnectionGoesOn() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            let replies = connection.stream(
                "org.example.test.Count",
                parameters: ["n": "many"] as JSONValue,
                returning: JSONValue.self
            )
            await #expect(throws: VarlinkError.invalidParameter("n")) {
                for try await _ in replies {}
            }
            #expect(try await connection.call("org.example.test.Echo") == [:])
            await connection.close()
        }
    }

    @Test func preEncodedParametersArriveAsTheSameJSON() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            let parameters: JSONValue = ["text": "a \"quoted\" line\n", "list": [1, 2.5, nil], "nested": ["ok": true]]
            #expect(try await connection.call("org.example.test.EchoRaw", parameters: parameters) == parameters)
            var replies: [JSONValue] = []
            for try await reply in connection.stream("org.example.test.EchoRaw", parameters: parameters, returning: JSONValue.self) {
                replies.append(reply)
            }
            #expect(replies == [parameters, parameters])
            await connection.close()
        }
    }

    /// A reply type that only a `JSONReader` can read: `JSONDecoder` would fail on it.
    struct ReadSum: Decodable, JSONReadable, Sendable {
        let sum: Int

        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "only read"))
        }

        init(reading json: inout JSONReader) throws(JSONReadError) {
            var sum: Int?
            try json.readObject { key, json throws(JSONReadError) in
                switch key {
                case "sum": sum = try json.readInt()
                default: try json.skipValue()
                }
            }
            guard let sum else { throw json.error("no sum") }
            self.sum = sum
        }
    }

    @Test func readableRepliesAreReadWithoutJSONDecoderAndErrorsStillArrive() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            let reply = try await connection.call("org.example.test.Add", parameters: ["a": 2, "b": 3] as JSONValue, returning: ReadSum.self)
            #expect(reply.sum == 5)
            await #expect(throws: VarlinkError.invalidParameter("b")) {
                try await connection.call("org.example.test.Add", parameters: ["a": 1] as JSONValue, returning: ReadSum.self)
            }
            await #expect(throws: VarlinkConnectionError.self) {
                try await connection.call("org.example.test.Echo", parameters: ["other": 1] as JSONValue, returning: ReadSum.self)
            }
            await connection.close()
        }
    }

    @Test func aReplyOfTheWrongShapeIsAMalformedReply() async throws {
        struct Sum: Decodable, Sendable { let sum: Int }
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            await #expect(throws: VarlinkConnectionError.self) {
                try await connection.call(
                    "org.example.test.Echo",
                    parameters: ["value": 1] as JSONValue,
                    returning: Sum.self
                )
            }
            #expect(try await connection.call("org.example.test.Echo") == [:])
            await connection.close()
        }
    }

    @Test func callsFailWithClosedOnceTheServerIsGone() async throws {
        let interface = TestInterface()
        try await withTemporaryDirectory { directory in
            let socketPath = directory + "/gone.sock"
            let server = VarlinkServer(
                socketPath: socketPath,
                info: testServiceInfo,
                interfaces: [interface],
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                logger: quietLogger
            )
            let connection = try await withThrowingTaskGroup(of: Void.self) { group in
                let (listening, ready) = AsyncStream.makeStream(of: Void.self)
                group.addTask {
                    defer { ready.finish() }
                    try await server.run { ready.yield() }
                }
                for await _ in listening { break }
                let connection = try await VarlinkConnection.connect(socketPath: socketPath)
                group.addTask {
                    await #expect(throws: VarlinkConnectionError.closed) {
                        try await connection.call("org.example.test.Wait")
                    }
                }
                await interface.waitFor(.started("Wait"))
                group.cancelAll()
                try await group.waitForAll()
                return connection
            }
            await #expect(throws: VarlinkConnectionError.closed) {
                try await connection.call("org.example.test.Echo")
            }
            await connection.close()
        }
    }

    @Test func aCallFromAnAlreadyCancelledTaskLeavesTheConnectionOpen() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            await withTaskGroup(of: Void.self) { group in
                group.cancelAll()
                group.addTask {
                    await #expect(throws: CancellationError.self) {
                        try await connection.call("org.example.test.Echo")
                    }
                }
            }
            #expect(try await connection.call("org.example.test.Echo") == [:])
            await connection.close()
        }
    }

    @Test func callsAfterCloseFailWithClosed() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            await connection.close()
            await #expect(throws: VarlinkConnectionError.closed) {
                try await connection.call("org.example.test.Echo")
            }
            let replies = connection.stream("org.example.test.Count", parameters: ["n": 1], returning: JSONValue.self)
            await #expect(throws: VarlinkConnectionError.closed) {
                for try await _ in replies {}
            }
        }
    }

    @Test func connectingWithoutAServerFailsClearly() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = directory + "/nobody.sock"
            let error = await #expect(throws: VarlinkConnectionError.self) {
                try await VarlinkConnection.connect(socketPath: socketPath)
            }
            guard case .cannotConnect(let path, _) = error else {
                Issue.record("unexpected error \(String(describing: error))")
                return
            }
            #expect(path == socketPath)
        }
    }

    @Test func aServerWhoseQueueOfNewConnectionsIsFullIsWaitedForNotRefused() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = directory + "/busy.sock"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(listener) }
            try #require(withUnixAddress(socketPath) { bind(listener, $0, $1) } == 0 && listen(listener, 0) == 0)
            // Connections no one accepts yet fill the queue, until the kernel refuses the next at once.
            var queued: [Int32] = []
            defer { queued.forEach { close($0) } }
            while true {
                let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
                guard withUnixAddress(socketPath, { connect(descriptor, $0, $1) }) == 0 else {
                    #expect(errno == EAGAIN)
                    close(descriptor)
                    break
                }
                queued.append(descriptor)
            }
            try #require(!queued.isEmpty)
            // A thread of its own: the tasks of tests running beside this one may keep the shared ones busy.
            let accepted = DispatchSemaphore(value: 0)
            let acceptor = Thread { [count = queued.count] in
                usleep(300_000)
                for _ in 0..<count { close(accept(listener, nil, nil)) }
                accepted.signal()
            }
            let started = ContinuousClock.now
            acceptor.start()
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            #expect(ContinuousClock.now - started >= .milliseconds(250))
            await connection.close()
            accepted.wait()
        }
    }

    @Test func aReplyLongerThanTheClientsMaximumFailsTheCall() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath, maximumMessageSize: 100)
            await #expect(throws: VarlinkFramingError.messageTooLarge(limit: 100)) {
                let long = String(repeating: "x", count: 200)
                return try await connection.call("org.example.test.Echo", parameters: ["value": .string(long)])
            }
            await #expect(throws: VarlinkConnectionError.closed) {
                try await connection.call("org.example.test.Echo")
            }
            await connection.close()
        }
    }
}
