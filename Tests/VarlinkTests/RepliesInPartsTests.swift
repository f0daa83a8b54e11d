import CompactJSON
import NIOCore
import Testing
@testable import Varlink

/// One element of a `Page`: a number, a text with escapes, a few tags.
struct PageItem: Equatable, Sendable, Decodable, JSONReadable {
    let n: Int
    let text: String
    let tags: [String]

    init(n: Int, text: String, tags: [String]) {
        (self.n, self.text, self.tags) = (n, text, tags)
    }

    init(reading json: inout JSONReader) throws(JSONReadError) {
        var n: Int?, text: String?, tags: [String] = []
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "n": n = try json.readInt()
            case "text": text = try json.readString()
            case "tags": tags = try json.readArray { json throws(JSONReadError) in try json.readString() }
            default: try json.skipValue()
            }
        }
        guard let n, let text else { throw json.error("an item lacks n or text") }
        self.init(n: n, text: text, tags: tags)
    }
}

/// Parameters led by an array of objects: `{"items": [...], "total": n}`.
struct Page: Equatable, Sendable, Decodable, JSONArrayLedObject {
    let items: [PageItem]
    let total: Int

    init(items: [PageItem], total: Int) {
        (self.items, self.total) = (items, total)
    }

    static var leadingArrayKey: StaticString { "items" }

    static func readElement(_ json: inout JSONReader, appendingTo items: inout [PageItem]) throws(JSONReadError) {
        items.append(try PageItem(reading: &json))
    }

    init(elements: [PageItem], readingMembersAfterArray json: inout JSONReader) throws(JSONReadError) {
        var total: Int?
        try json.readRemainingMembers { key, json throws(JSONReadError) in
            if case "total" = key { total = try json.readInt() } else { try json.skipValue() }
        }
        guard let total else { throw json.error("a page lacks its total") }
        self.init(items: elements, total: total)
    }

    init(reading json: inout JSONReader) throws(JSONReadError) {
        var items: [PageItem]?, total: Int?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "items": items = try json.readArray(of: PageItem.self)
            case "total": total = try json.readInt()
            default: try json.skipValue()
            }
        }
        guard let items, let total else { throw json.error("a page lacks its items or total") }
        self.init(items: items, total: total)
    }

    func write(to json: inout JSONWriter, itemsFirst: Bool = true) {
        json.beginObject()
        if !itemsFirst { json.key("total"); json.int(total) }
        json.key("items"); json.beginArray()
        for item in items { Self.write(item, to: &json) }
        json.endArray()
        if itemsFirst { json.key("total"); json.int(total) }
        json.endObject()
    }

    static func write(_ item: PageItem, to json: inout JSONWriter) {
        json.beginObject()
        json.key("n"); json.int(item.n)
        json.key("text"); json.string(item.text)
        json.key("tags"); json.array(item.tags) { $0.string($1) }
        json.endObject()
    }

    /// `count` items of texts about `textLength` long, with quotes, backslashes, control characters and non-ASCII.
    static func sample(count: Int, textLength: Int = 12) -> Page {
        let items = (0..<count).map { index in
            PageItem(n: index % 2 == 0 ? index * 1_000_003 : -index, text: "\"é\\\n🙂" + String(repeating: "w", count: textLength),
                     tags: index % 3 == 0 ? [] : ["a\u{1}", "ü"])
        }
        return Page(items: items, total: count * 7)
    }
}

/// Parameters led by an array of bare numbers, the one kind of element that still reads when cut short.
struct Numbers: Equatable, Sendable, Decodable, JSONArrayLedObject {
    let numbers: [Int]

    static var leadingArrayKey: StaticString { "numbers" }

    static func readElement(_ json: inout JSONReader, appendingTo numbers: inout [Int]) throws(JSONReadError) {
        numbers.append(try json.readInt())
    }

    init(numbers: [Int]) { self.numbers = numbers }

    init(elements: [Int], readingMembersAfterArray json: inout JSONReader) throws(JSONReadError) {
        try json.readRemainingMembers { _, json throws(JSONReadError) in try json.skipValue() }
        self.init(numbers: elements)
    }

    init(reading json: inout JSONReader) throws(JSONReadError) {
        var numbers: [Int]?
        try json.readObject { key, json throws(JSONReadError) in
            if case "numbers" = key { numbers = try json.readArray { json throws(JSONReadError) in try json.readInt() } } else { try json.skipValue() }
        }
        guard let numbers else { throw json.error("no numbers") }
        self.init(numbers: numbers)
    }
}

/// `org.example.parts`: replies sent in parts as they are written.
final class PartsInterface: VarlinkInterface {
    let name = "org.example.parts"
    let description = """
        interface org.example.parts

        # A page of `count` items, each written as a part of its own; the reply fails after `failAfter` items if given.
        method Page(count: int, textLength: int, failAfter: ?int) -> (items: [](n: int, text: string, tags: []string), total: int)
        # One item as a first part, then the rest once `Release` is called.
        method Held() -> (items: [](n: int, text: string, tags: []string), total: int)
        method Release() -> ()
        error Failed ()
        """

    private let release = AsyncStream.makeStream(of: Void.self)

    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        switch call.methodName {
        case "Page":
            let parameters = try call.decodeParameters([String: Int].self)
            let page = Page.sample(count: parameters["count"] ?? 0, textLength: parameters["textLength"] ?? 12)
            try await replies.send(inParts: { parts in
                for (index, item) in page.items.enumerated() {
                    if index == parameters["failAfter"] { throw VarlinkError("org.example.parts.Failed") }
                    parts.write { json, isFirst in
                        if isFirst { json.beginObject(); json.key("items"); json.beginArray() }
                        Page.write(item, to: &json)
                    }
                }
                if page.items.count == parameters["failAfter"] { throw VarlinkError("org.example.parts.Failed") }
                parts.write { json, isFirst in
                    if isFirst { json.beginObject(); json.key("items"); json.beginArray() }
                    json.endArray()
                    json.key("total"); json.int(page.total)
                    json.endObject()
                }
            })
        case "Held":
            let page = Page.sample(count: 2, textLength: 20_000)
            try await replies.send(inParts: { parts in
                parts.write { json, _ in json.beginObject(); json.key("items"); json.beginArray(); Page.write(page.items[0], to: &json) }
                for await _ in release.stream { break }
                parts.write { json, _ in
                    Page.write(page.items[1], to: &json)
                    json.endArray()
                    json.key("total"); json.int(page.total)
                    json.endObject()
                }
            })
        case "Release":
            release.continuation.yield()
            try await replies.send([:] as JSONValue)
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }
}

/// Long replies go out in parts as they are written, and the client reads them as they arrive, to the same
/// outcome as reading them whole.
@Suite(.timeLimit(.minutes(2))) struct RepliesInPartsTests {
    static func text(of page: Page, itemsFirst: Bool = true) -> String {
        var json = JSONWriter()
        page.write(to: &json, itemsFirst: itemsFirst)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The outcome of reading `parts` as they arrive, or the error's description.
    static func readInParts<Parameters: JSONArrayLedObject & Decodable>(_ parts: [[UInt8]], as type: Parameters.Type) -> String {
        let reader = ArrayLedReplyReader<Parameters>()
        for part in parts { reader.append(ByteBuffer(bytes: part)) }
        return describe { try reader.finish().outcome.get() }
    }

    /// The outcome of reading `reply` whole, as every other call does, or the error's description.
    static func readWhole<Parameters: JSONArrayLedObject & Decodable>(_ reply: [UInt8], as type: Parameters.Type) -> String {
        describe { try IncomingReply<Parameters>(frame: ByteBuffer(bytes: reply)).outcome.get() }
    }

    static func describe(_ read: () throws -> some Any) -> String {
        do { return "\(try read())" } catch { return "\(type(of: error)): \(error)" }
    }

    /// `reply` (without its NUL) cut at every byte once, and in three at a stride.
    static func cuts(of reply: [UInt8]) -> [[[UInt8]]] {
        (1..<reply.count).map { [Array(reply[..<$0]), Array(reply[$0...])] }
            + stride(from: 1, to: reply.count - 7, by: 7).map { [Array(reply[..<$0]), Array(reply[$0..<$0 + 5]), Array(reply[($0 + 5)...])] }
    }

    @Test func aReplyCutAnywhereReadsAsTheWholeReply() {
        let page = Page.sample(count: 3)
        let reply = Array(#"{"parameters":\#(Self.text(of: page))}"#.utf8)
        // Through keys, numbers, escapes and multi-byte characters.
        for parts in Self.cuts(of: reply) {
            #expect(Self.readInParts(parts, as: Page.self) == "\(page)", "cut at \(parts.map(\.count))")
        }
    }

    @Test func aReplyArrivingAByteAtATimeReadsAsTheWholeReply() {
        // One element of 64 kB among short ones: read again at every byte, it took a minute here instead of a second.
        let page = Page(items: Page.sample(count: 3).items + Page.sample(count: 1, textLength: 64 << 10).items, total: 4)
        let reply = Array(#"{"parameters":\#(Self.text(of: page))}"#.utf8)
        #expect(Self.readInParts(reply.map { [$0] }, as: Page.self) == "\(page)")
    }

    @Test func anArrayOfNumbersCutAnywhereReadsAsTheWholeArray() {
        let reply = Array(#"{"parameters":{"numbers": [ 12345 , -678,9 ] , "more": [1]}}"#.utf8)
        for parts in Self.cuts(of: reply) {
            #expect(Self.readInParts(parts, as: Numbers.self) == "\(Numbers(numbers: [12345, -678, 9]))", "cut at \(parts.map(\.count))")
        }
    }

    @Test(arguments: [
        #"{"parameters":{"total":4,"items":[{"n":1,"text":"a","tags":[]}]}}"#,
        #"{"parameters": {"items":[]  ,"total":0} }"#,
        #"{"parameters":{"items":[{"n":1,"text":"a","tags":[]}],"total":1},"continues":false}"#,
        #"{"error":"org.example.parts.Failed","parameters":{"items":[]}}"#,
        #"{"parameters":{"items":[],"total":0},"error":"org.example.parts.Failed"}"#,
        #"{"parameters":{"items":[{"n":1}],"total":1}}"#,
        #"{"parameters":{"items":[{"n":1,"text":"a","tags":[]} {"n":2}],"total":2}}"#,
        #"{"parameters":{"items":[],"total":"many"}}"#,
        #"{"parameters":{"items":[1,2],"total":2}}"#,
        #"{"parameters":{"items":[],"total":2}} trailing"#,
    ])
    func repliesOfOtherShapesHaveTheOutcomeOfReadingThemWhole(text: String) {
        let reply = Array(text.utf8)
        let whole = Self.readWhole(reply, as: Page.self)
        for parts in [[reply]] + Self.cuts(of: reply) {
            #expect(Self.readInParts(parts, as: Page.self) == whole, "cut at \(parts.map(\.count))")
        }
    }

    @Test func aLongReplyInPartsArrivesWhole() async throws {
        try await withServer([PartsInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            for (count, textLength) in [(0, 12), (1, 12), (300, 12), (40, 5000)] {
                let parameters: JSONValue = ["count": .int(count), "textLength": .int(textLength)]
                let page = try await connection.call("org.example.parts.Page", parameters: parameters, readingAsItArrives: Page.self)
                #expect(page == Page.sample(count: count, textLength: textLength))
                // Read whole, the same reply gives the same page.
                #expect(try await connection.call("org.example.parts.Page", parameters: parameters, returning: Page.self) == page)
            }
            await connection.close()
        }
    }

    @Test func aPartGoesOutBeforeTheReplyIsWritten() async throws {
        try await withServer([PartsInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method":"org.example.parts.Held"}"#)
                let start = try await client.peek(atLeast: 40)
                #expect(String(decoding: start, as: UTF8.self).hasPrefix(#"{"parameters":{"items":[{"n":0,"#))
                #expect(!start.contains(0))
                let releaser = try await VarlinkConnection.connect(socketPath: socketPath)
                _ = try await releaser.call("org.example.parts.Release")
                await releaser.close()
                let reply = try #require(try await client.receive())
                #expect(reply.hasSuffix(#""total":14}}"#))
            }
        }
    }

    @Test func aFailureBeforeThePartsIsAnErrorReplyAndOneAfterClosesTheConnection() async throws {
        try await withServer([PartsInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            // Items of 20 kB: the first goes out before the failure.
            let failing: (Int) -> JSONValue = { ["count": .int(3), "textLength": .int(20_000), "failAfter": .int($0)] }
            await #expect(throws: VarlinkError("org.example.parts.Failed")) {
                try await connection.call("org.example.parts.Page", parameters: failing(0), readingAsItArrives: Page.self)
            }
            await #expect(throws: VarlinkConnectionError.closed) {
                try await connection.call("org.example.parts.Page", parameters: failing(1), readingAsItArrives: Page.self)
            }
            #expect(!connection.isOpen)
            let next = try await VarlinkConnection.connect(socketPath: socketPath)
            let page = try await next.call("org.example.parts.Page", parameters: ["count": 2, "textLength": 12], readingAsItArrives: Page.self)
            #expect(page == Page.sample(count: 2))
            await next.close()
        }
    }
}
