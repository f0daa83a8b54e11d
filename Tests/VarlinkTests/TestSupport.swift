import CompactJSON
import Foundation
import Logging
import NIOCore
import NIOPosix
import Testing
import Varlink

/// What the test interface's handlers report, in the order they do it.
enum HandlerEvent: Hashable, Sendable {
    case started(String)
    case passedGate
    case cancelled(String)
    case sent(Int)
    case sendFailed(afterSending: Int)
    case rawBytesFailed(String)
}

/// `org.example.test`: methods that exercise the server, reporting what they do as `HandlerEvent`s.
final class TestInterface: VarlinkInterface {
    let name = "org.example.test"
    let description = """
        # Methods for testing the varlink server.
        interface org.example.test

        method Echo(value: ?object) -> (value: ?object)
        method Add(a: int, b: int) -> (sum: int)
        method Sum(a: int, b: int) -> (sum: int)
        method Query(query: (limit: int, filter: ?string), changes: [](op: string)) -> (count: int)
        method Count(n: int) -> (i: int)
        method Gate() -> ()
        method Wait() -> ()
        method Flood(size: int, count: int) -> (data: string)
        method WhoAmI() -> (pid: int, uid: int, gid: int)
        method Fail() -> ()
        method Refuse() -> ()
        method Crash() -> ()
        method Silent() -> ()
        method StreamWithoutMore() -> ()
        method ReplyTwice() -> ()
        # Upgraded: the reply, then `size` raw bytes (byte i is i % 251).
        method Download(size: int) -> (size: int)
        # Upgraded: the reply, then the client sends `size` raw bytes, then a message with their sum.
        method Upload(size: int) -> ()

        error NotFound (id: int)
        error Refused ()
        error InternalError (reason: string)
        """

    let events: AsyncStream<HandlerEvent>
    private let report: AsyncStream<HandlerEvent>.Continuation
    private let gate: AsyncStream<Void>
    private let gateOpener: AsyncStream<Void>.Continuation

    init() {
        (events, report) = AsyncStream.makeStream(of: HandlerEvent.self)
        (gate, gateOpener) = AsyncStream.makeStream(of: Void.self)
    }

    /// Lets a waiting `Gate` call go on.
    func openGate() {
        gateOpener.yield()
    }

    /// Waits until a handler reports `event`, skipping the events before it.
    func waitFor(_ event: HandlerEvent) async {
        for await reported in events where reported == event {
            return
        }
    }

    /// The next `count` events.
    func nextEvents(_ count: Int) async -> [HandlerEvent] {
        var result: [HandlerEvent] = []
        for await event in events {
            result.append(event)
            if result.count == count { break }
        }
        return result
    }

    struct Query: Decodable {
        struct Filter: Decodable {
            let limit: Int
            let filter: String?
        }
        enum Operation: String, Decodable {
            case insert, delete
        }
        struct Change: Decodable {
            let op: Operation
        }
        let query: Filter
        let changes: [Change]
    }

    struct Flood: Decodable {
        let size: Int
        let count: Int
    }

    struct Failure: Error {}

    /// Parameters that only a `JSONReader` can read: `JSONDecoder` would fail on them.
    struct ReadOperands: Decodable, JSONReadable {
        let a, b: Int

        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "only read"))
        }

        init(reading json: inout JSONReader) throws(JSONReadError) {
            var a: Int?, b: Int?
            try json.readObject { key, json throws(JSONReadError) in
                switch key {
                case "a": a = try json.readInt()
                case "b": b = try json.readInt()
                default: try json.skipValue()
                }
            }
            guard let a, let b else { throw json.error("an operand is missing") }
            (self.a, self.b) = (a, b)
        }
    }

    /// Parameters that only a `JSONWriter` can send: `JSONEncoder` would fail on them.
    struct PreEncoded: Encodable, JSONWritable, Sendable {
        let json: [UInt8]

        func write(to writer: inout JSONWriter) { writer.encoded(json) }

        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(json, .init(codingPath: [], debugDescription: "only written"))
        }
    }

    func acceptsUpgrade(_ methodName: String) -> Bool {
        methodName == "Download" || methodName == "Upload"
    }

    /// A file of `size` bytes, byte i being i % 251.
    static func patternFile(size: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("varlink-\(UUID().uuidString)").path
        // Whole periods of 251 bytes, so that every chunk continues the pattern.
        let chunk = Data((0..<251 * 4096).map { UInt8($0 % 251) })
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        var written = 0
        while written < size {
            let count = min(chunk.count, size - written)
            try file.write(contentsOf: chunk.prefix(count))
            written += count
        }
        return path
    }

    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        report.yield(.started(call.methodName))
        switch call.methodName {
        case "Echo":
            try await replies.send(call.parameters)
        case "EchoRaw":
            let json = PreEncoded(json: Array(call.parameters.description.utf8))
            try await replies.send(json, continues: call.more)
            if call.more { try await replies.send(json) }
        case "Add":
            struct Operands: Decodable { let a, b: Int }
            let operands = try call.decodeParameters(Operands.self)
            try await replies.send(["sum": .int(operands.a + operands.b)] as JSONValue)
        case "Sum":
            let operands = try call.decodeParameters(ReadOperands.self)
            try await replies.send(["sum": .int(operands.a + operands.b)] as JSONValue)
        case "Query":
            let query = try call.decodeParameters(Query.self)
            try await replies.send(["count": .int(min(query.query.limit, query.changes.count))] as JSONValue)
        case "Count":
            let n = try call.decodeParameters([String: Int].self)["n"] ?? 0
            for i in 0..<n {
                try await replies.send(["i": .int(i)] as JSONValue, continues: i < n - 1)
            }
        case "Gate":
            for await _ in gate { break }
            report.yield(.passedGate)
            try await replies.send([:] as JSONValue)
        case "Wait":
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                report.yield(.cancelled(call.methodName))
                throw error
            }
        case "Flood":
            let flood = try call.decodeParameters(Flood.self)
            let data = JSONValue.string(String(repeating: "x", count: flood.size))
            for index in 0..<flood.count {
                do {
                    try await replies.send(["data": data] as JSONValue, continues: index < flood.count - 1)
                } catch {
                    report.yield(.sendFailed(afterSending: index))
                    throw error
                }
                report.yield(.sent(index + 1))
            }
        case "WhoAmI":
            let peer = try #require(context.peer)
            let credentials: JSONValue = [
                "pid": .int(Int(peer.pid)), "uid": .int(Int(peer.uid)), "gid": .int(Int(peer.gid)),
            ]
            try await replies.send(credentials)
        case "Fail":
            throw VarlinkError("org.example.test.NotFound", parameters: ["id": 7])
        case "Refuse":
            throw VarlinkError("org.example.test.Refused")
        case "Crash":
            throw Failure()
        case "Silent":
            return
        case "StreamWithoutMore":
            try await replies.send([:] as JSONValue, continues: true)
        case "Download":
            let size = try call.decodeParameters([String: Int].self)["size"] ?? 0
            let path = try Self.patternFile(size: size)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let descriptor = open(path, O_RDONLY)
            defer { close(descriptor) }
            try await replies.send(["size": .int(size)] as JSONValue)
            do {
                try await replies.sendFile(descriptor, offset: 0, length: size)
            } catch {
                report.yield(.rawBytesFailed(call.methodName))
                throw error
            }
        case "Upload":
            let size = try call.decodeParameters([String: Int].self)["size"] ?? 0
            let input = try #require(context.upgradedInput)
            input.expect(size)
            try await replies.send([:] as JSONValue)
            var sum = 0
            do {
                try await input.receive(size) { chunk in sum += chunk.readableBytesView.reduce(0) { $0 + Int($1) } }
            } catch {
                report.yield(.rawBytesFailed(call.methodName))
                throw error
            }
            try await replies.sendAfterRawBytes(["sum": .int(sum)] as JSONValue)
        case "ReplyTwice":
            try await replies.send([:] as JSONValue)
            try await replies.send([:] as JSONValue)
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }
}

/// A logger that drops everything.
let quietLogger = Logger(label: "varlink-tests") { _ in SwiftLogNoOpLogHandler() }

let testServiceInfo = VarlinkServiceInfo(
    vendor: "Example",
    product: "varlink-tests",
    version: "1.0",
    url: "https://example.org/varlink-tests"
)

/// A fresh directory for one test's sockets, removed afterwards.
func withTemporaryDirectory<Result>(_ body: (String) async throws -> Result) async throws -> Result {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("varlink-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory.path)
}

/// Runs a server with `interfaces` on a socket in a fresh directory while `body` runs, then stops it.
func withServer(
    _ interfaces: [any VarlinkInterface] = [],
    maximumMessageSize: Int = 1 << 20,
    _ body: (_ socketPath: String) async throws -> Void
) async throws {
    try await withTemporaryDirectory { directory in
        let server = VarlinkServer(
            socketPath: directory + "/run/test.sock",
            info: testServiceInfo,
            interfaces: interfaces,
            maximumMessageSize: maximumMessageSize,
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: quietLogger
        )
        try await withRunningServer(server) { try await body(server.socketPath) }
    }
}

/// Runs `server` while `body` runs, then cancels it and waits for it to stop.
func withRunningServer(_ server: VarlinkServer, _ body: () async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        let (listening, ready) = AsyncStream.makeStream(of: Void.self)
        group.addTask {
            defer { ready.finish() }
            try await server.run { ready.yield() }
        }
        for await _ in listening { break }
        try await body()
        group.cancelAll()
        try await group.waitForAll()
    }
}

/// A client that reads and writes bytes by hand, independent of the library's framing.
struct RawClient {
    let channel: any Channel
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var received: [UInt8] = []

    /// Connects, runs `body`, then closes the connection.
    static func withConnection<Result>(
        to socketPath: String,
        _ body: (inout RawClient) async throws -> Result
    ) async throws -> Result {
        let connection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .connect(unixDomainSocketPath: socketPath) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await connection.executeThenClose { inbound, outbound in
            var client = RawClient(
                channel: connection.channel,
                inbound: inbound.makeAsyncIterator(),
                outbound: outbound
            )
            return try await body(&client)
        }
    }

    private init(
        channel: any Channel,
        inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) {
        self.channel = channel
        self.inbound = inbound
        self.outbound = outbound
    }

    /// Writes `bytes` as they are.
    func write(_ bytes: [UInt8]) async throws {
        try await outbound.write(ByteBuffer(bytes: bytes))
    }

    /// Writes each message followed by NUL, all in one write.
    func send(_ messages: String...) async throws {
        try await write(Array(messages.map { $0 + "\0" }.joined().utf8))
    }

    /// The next NUL-terminated message, without its NUL; `nil` when the server closed the connection.
    mutating func receive() async throws -> String? {
        while true {
            if let end = received.firstIndex(of: 0) {
                let message = String(decoding: received[..<end], as: UTF8.self)
                received.removeSubrange(...end)
                return message
            }
            guard let bytes = try await inbound.next() else { return nil }
            received += bytes.readableBytesView
        }
    }

    /// The bytes received and not yet taken by `receive`, once there are at least `count` of them.
    mutating func peek(atLeast count: Int) async throws -> [UInt8] {
        while received.count < count {
            guard let bytes = try await inbound.next() else { break }
            received += bytes.readableBytesView
        }
        return received
    }

    /// The next message parsed as JSON; `nil` when the server closed the connection.
    mutating func receiveJSON() async throws -> JSONValue? {
        guard let message = try await receive() else { return nil }
        return try JSONDecoder().decode(JSONValue.self, from: Data(message.utf8))
    }

    /// Whether the server closed the connection: true at end of input with no bytes left to read.
    mutating func isClosedByServer() async throws -> Bool {
        try await receive() == nil && received.isEmpty
    }

    /// Shuts down the sending side; replies can still be read.
    func closeSendingSide() async throws {
        try await channel.close(mode: .output)
    }
}

/// Calls `body` with `path` as a Unix socket address, for `bind` and `connect`.
func withUnixAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { pathBytes in
        pathBytes.copyBytes(from: path.utf8)
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
