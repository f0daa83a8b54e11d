/// A value that reads itself from JSON with a `JSONReader`, for replies too large to go through
/// `JSONDecoder` cheaply. It must read what its `Decodable` conformance reads, to the same value.
public protocol JSONReadable {
    init(reading json: inout JSONReader) throws(JSONReadError)
}

/// Why JSON could not be read, and the byte offset where that was noticed.
public struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var offset: Int
    /// The text nests arrays and objects deeper than `JSONReader.maximumDepth`: well-formed, perhaps, but refused.
    public var isTooDeep: Bool

    public init(_ reason: String, at offset: Int, isTooDeep: Bool = false) {
        self.reason = reason
        self.offset = offset
        self.isTooDeep = isTooDeep
    }

    public var description: String { "\(reason) (at byte \(offset))" }
}

/// An object member's key, valid while its member is read; compares with string literals in a `switch`.
public struct JSONKey: CustomStringConvertible {
    @usableFromInline let bytes: UnsafeRawBufferPointer

    @usableFromInline init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    @inlinable @inline(__always) public static func ~= (pattern: StaticString, key: JSONKey) -> Bool {
        guard pattern.utf8CodeUnitCount == key.bytes.count else { return false }
        let literal = pattern.utf8Start
        for offset in 0..<key.bytes.count where literal[offset] != key.bytes[offset] { return false }
        return true
    }

    public var description: String { String(decoding: bytes, as: UTF8.self) }
}

/// Reads JSON (RFC 8259) straight from bytes, one value at a time, in the order the text holds them.
///
/// A reader exists only inside `read(_:from:)` and its siblings, which check that nothing but whitespace
/// follows the value.
public struct JSONReader {
    /// How deep arrays and objects may nest. Every message of the protocol fits in a few levels; the limit keeps
    /// a hostile text (`{"a":{"a":…}}` fifty thousand deep) from exhausting the reading thread's stack.
    public static let maximumDepth = 256

    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline var index = 0
    /// How many arrays and objects enclose the reader's position.
    @usableFromInline var depth = 0

    @usableFromInline init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Reads one whole JSON text with `body`.
    public static func read<Value>(
        _ bytes: UnsafeRawBufferPointer, with body: (inout JSONReader) throws(JSONReadError) -> Value
    ) throws(JSONReadError) -> Value {
        var reader = JSONReader(bytes)
        let value = try body(&reader)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    /// Reads the JSON value at the start of `bytes` with `body`, whatever follows it (the rest of a text still
    /// arriving); returns the value and how many bytes it took, whitespace before it included. Inlinable: a reader
    /// generic over what it reads calls it once per element, and would otherwise look up its result's type each time.
    @inlinable
    public static func readLeadingValue<Value>(
        _ bytes: UnsafeRawBufferPointer, with body: (inout JSONReader) throws(JSONReadError) -> Value
    ) throws(JSONReadError) -> (value: Value, byteCount: Int) {
        var reader = JSONReader(bytes)
        let value = try body(&reader)
        return (value, reader.index)
    }

    /// Reads one whole JSON text as a `Value`.
    public static func read<Value: JSONReadable>(_ type: Value.Type, from bytes: UnsafeRawBufferPointer) throws(JSONReadError) -> Value {
        try read(bytes) { json throws(JSONReadError) in try Value(reading: &json) }
    }

    // MARK: Structure

    /// Reads an object, calling `member` with each key; `member` must read or skip the value.
    @inlinable
    public mutating func readObject(_ member: (JSONKey, inout JSONReader) throws(JSONReadError) -> Void) throws(JSONReadError) {
        try readMembers { json throws(JSONReadError) in try json.readMember(member) }
    }

    /// Reads one member of an object: its key, the colon, and its value by `member`.
    @inlinable @inline(__always)
    mutating func readMember(_ member: (JSONKey, inout JSONReader) throws(JSONReadError) -> Void) throws(JSONReadError) {
        let key = try readStringBytes()
        try expect(UInt8(ascii: ":"))
        if let bytes = key.bytes {
            try member(JSONKey(bytes: bytes), &self)
        } else {
            var escaped = key.escaped!
            do {
                try escaped.withUTF8 { utf8 in try member(JSONKey(bytes: UnsafeRawBufferPointer(utf8)), &self) }
            } catch {
                throw error as! JSONReadError  // `withUTF8` rethrows untyped; `member` throws only this type
            }
        }
    }

    /// Reads an object's braces and commas, calling `member` to read each member, key and value.
    @inlinable @inline(__always)
    mutating func readMembers(_ member: (inout JSONReader) throws(JSONReadError) -> Void) throws(JSONReadError) {
        try expect(UInt8(ascii: "{"))
        try enterNesting()
        defer { depth -= 1 }
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return }
        repeat {
            skipWhitespace()
            try member(&self)
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// Reads the rest of an object whose opening brace and first members were read before this reader began
    /// (`,"key":value…}`, or just `}`), calling `member` with each key as `readObject` does.
    public mutating func readRemainingMembers(_ member: (JSONKey, inout JSONReader) throws(JSONReadError) -> Void) throws(JSONReadError) {
        skipWhitespace()
        while consume(UInt8(ascii: ",")) {
            skipWhitespace()
            try readMember(member)
            skipWhitespace()
        }
        try expect(UInt8(ascii: "}"))
    }

    /// A string's raw bytes, or its text when it holds escapes.
    @inlinable
    mutating func readStringBytes() throws(JSONReadError) -> (bytes: UnsafeRawBufferPointer?, escaped: String?) {
        try expect(UInt8(ascii: "\""))
        let start = index
        skipPlainStringBytes()
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return (UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1]), nil)
        }
        index = start - 1
        return (nil, try readString())
    }

    /// Reads an array, calling `element` for each of its values.
    @inlinable
    public mutating func readArray(_ element: (inout JSONReader) throws(JSONReadError) -> Void) throws(JSONReadError) {
        try expect(UInt8(ascii: "["))
        try enterNesting()
        defer { depth -= 1 }
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return }
        repeat {
            try element(&self)
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
    }

    /// Reads an array whose elements `element` reads.
    @inlinable
    public mutating func readArray<Element>(of element: (inout JSONReader) throws(JSONReadError) -> Element) throws(JSONReadError) -> [Element] {
        var elements: [Element] = []
        try readArray { json throws(JSONReadError) in elements.append(try element(&json)) }
        return elements
    }

    /// Reads an array of readable values.
    @inlinable
    public mutating func readArray<Element: JSONReadable>(of type: Element.Type) throws(JSONReadError) -> [Element] {
        try readArray { json throws(JSONReadError) in try Element(reading: &json) }
    }

    /// Reads `null` as nil, anything else with `read`.
    @inlinable
    public mutating func readOptional<Value>(_ read: (inout JSONReader) throws(JSONReadError) -> Value) throws(JSONReadError) -> Value? {
        if try readNull() { return nil }
        return try read(&self)
    }

    /// Consumes a `null` and says whether there was one.
    @inlinable
    public mutating func readNull() throws(JSONReadError) -> Bool {
        skipWhitespace()
        guard peek == UInt8(ascii: "n") else { return false }
        try expectLiteral("null")
        return true
    }

    /// Reads `read`; if it fails, skips the value instead. Returns the outcome and the value's bytes.
    public mutating func attempt<Value>(
        _ read: (inout JSONReader) throws(JSONReadError) -> Value
    ) throws(JSONReadError) -> (outcome: Result<Value, JSONReadError>, bytes: UnsafeRawBufferPointer) {
        skipWhitespace()
        let start = index
        let outcome: Result<Value, JSONReadError>
        do {
            outcome = .success(try read(&self))
        } catch {
            outcome = .failure(error)
            index = start
            try skipValue()
        }
        return (outcome, UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
    }

    /// Skips one value of any kind, checking its syntax.
    public mutating func skipValue() throws(JSONReadError) {
        skipWhitespace()
        switch peek {
        case UInt8(ascii: "{"): try readObject { _, json throws(JSONReadError) in try json.skipValue() }
        case UInt8(ascii: "["): try readArray { json throws(JSONReadError) in try json.skipValue() }
        // Checked as `readString` checks it, without making a `String` of text that is thrown away.
        case UInt8(ascii: "\""): _ = try readStringBytes()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"): _ = try readNull()
        default: _ = try readDouble()
        }
    }
}
