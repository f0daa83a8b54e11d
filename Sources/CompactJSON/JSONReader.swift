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

    private init(_ bytes: UnsafeRawBufferPointer) {
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

    /// Reads one whole JSON text as a `Value`.
    public static func read<Value: JSONReadable>(_ type: Value.Type, from bytes: UnsafeRawBufferPointer) throws(JSONReadError) -> Value {
        try read(bytes) { json throws(JSONReadError) in try Value(reading: &json) }
    }

    // MARK: Structure

    /// Reads an object, calling `member` with each key; `member` must read or skip the value.
    @inlinable
    public mutating func readObject(_ member: (JSONKey, inout JSONReader) throws(JSONReadError) -> Void) throws(JSONReadError) {
        try readMembers { json throws(JSONReadError) in
            let key = try json.readStringBytes()
            try json.expect(UInt8(ascii: ":"))
            if let bytes = key.bytes {
                try member(JSONKey(bytes: bytes), &json)
            } else {
                var escaped = key.escaped!
                do {
                    try escaped.withUTF8 { utf8 in try member(JSONKey(bytes: UnsafeRawBufferPointer(utf8)), &json) }
                } catch {
                    throw error as! JSONReadError  // `withUTF8` rethrows untyped; `member` throws only this type
                }
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
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"): _ = try readNull()
        default: _ = try readDouble()
        }
    }

    // MARK: Scalars

    public mutating func readBool() throws(JSONReadError) -> Bool {
        skipWhitespace()
        if peek == UInt8(ascii: "t") {
            try expectLiteral("true")
            return true
        }
        guard peek == UInt8(ascii: "f") else { throw error("expected true or false") }
        try expectLiteral("false")
        return false
    }

    /// Reads an integer; a number with a fraction or exponent is accepted when its value is whole.
    public mutating func readInt() throws(JSONReadError) -> Int {
        skipWhitespace()
        let start = index
        let negative = consume(UInt8(ascii: "-"))
        var value = 0
        var digits = 0
        while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            let digit = Int(byte - UInt8(ascii: "0"))
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowShift, !overflowAdd else { throw error("integer out of range", at: start) }
            value = next
            digits += 1
            index += 1
        }
        guard digits > 0 else { throw error("expected a number", at: start) }
        guard let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") else {
            return value
        }
        index = start
        let number = try readDouble()
        guard let whole = Int(exactly: number) else { throw error("expected an integer", at: start) }
        return whole
    }

    public mutating func readDouble() throws(JSONReadError) -> Double {
        skipWhitespace()
        let start = index
        while let byte = peek, Self.isNumberByte(byte) { index += 1 }
        if let exact = Self.exactDecimal(UnsafeRawBufferPointer(rebasing: bytes[start..<index])) { return exact }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
              let value = Double(text), value.isFinite
        else { throw error("expected a number", at: start) }
        return value
    }

    /// The value of a plain decimal (`-12.375`: no exponent, at most 15 digits) computed exactly, as
    /// Clinger's fast path does: both the digits and the power of ten are exact doubles, so one division
    /// rounds correctly. Nil for any other text, which `Double(_:)` then reads.
    static func exactDecimal(_ text: UnsafeRawBufferPointer) -> Double? {
        var index = 0, digits: Int64 = 0, digitCount = 0, fractionDigits = 0, seenPoint = false
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < text.count, text[index] != UInt8(ascii: "0") || text.count == index + 1 || text[index + 1] == UInt8(ascii: ".")
        else { return nil }
        while index < text.count {
            let byte = text[index]
            index += 1
            if byte == UInt8(ascii: "."), !seenPoint, digitCount > 0 {
                seenPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digitCount < 15 else { return nil }
            digits = digits * 10 + Int64(byte - UInt8(ascii: "0"))
            digitCount += 1
            if seenPoint { fractionDigits += 1 }
        }
        guard digitCount > 0, !seenPoint || fractionDigits > 0 else { return nil }
        let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]
        let magnitude = Double(digits) / powersOfTen[fractionDigits]
        return negative ? -magnitude : magnitude
    }

    public mutating func readString() throws(JSONReadError) -> String {
        skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = index
        skipPlainStringBytes()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("control character in a string") }
            index += 1
        }
        return try readEscapedString(from: start)
    }

    /// Reads a string and parses its UTF-8 with `parse` without making a `String` first (unless it holds escapes).
    @inlinable
    public mutating func readString<Value>(parsing parse: (UnsafeRawBufferPointer) -> Value?) throws(JSONReadError) -> Value? {
        skipWhitespace()
        let string = try readStringBytes()
        if let bytes = string.bytes { return parse(bytes) }
        var escaped = string.escaped!
        return escaped.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Reads a string whose raw value has the given wire names.
    @inlinable
    public mutating func read<Value: RawRepresentable>(_ type: Value.Type) throws(JSONReadError) -> Value where Value.RawValue == String {
        let start = index
        let name = try readString()
        guard let value = Value(rawValue: name) else { throw error("unknown value \"\(name)\"", at: start) }
        return value
    }

    // MARK: Bytes

    @inlinable @inline(__always) var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    @inlinable @inline(__always) mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    @inlinable @inline(__always) mutating func expect(_ byte: UInt8) throws(JSONReadError) {
        skipWhitespace()
        guard consume(byte) else { throw expected(byte) }
    }

    /// Counts one more enclosing array or object, refusing one past `maximumDepth`.
    @inlinable @inline(__always) mutating func enterNesting() throws(JSONReadError) {
        guard depth < Self.maximumDepth else {
            throw JSONReadError("arrays and objects nested deeper than \(Self.maximumDepth) levels", at: index - 1, isTooDeep: true)
        }
        depth += 1
    }

    @usableFromInline func expected(_ byte: UInt8) -> JSONReadError {
        error("expected \"\(Character(Unicode.Scalar(byte)))\"")
    }

    /// Consumes `literal` (`null`, `true`, `false`): its first four bytes compared in one load, then the rest.
    @inlinable @inline(__always) mutating func expectLiteral(_ literal: StaticString) throws(JSONReadError) {
        let count = literal.utf8CodeUnitCount
        if count >= 4, index + count <= bytes.count,
           bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)
               == UnsafeRawPointer(literal.utf8Start).loadUnaligned(as: UInt32.self),
           (4..<count).allSatisfy({ bytes[index + $0] == literal.utf8Start[$0] }) {
            index += count
            return
        }
        try expectLiteralBytes(literal)
    }

    @usableFromInline mutating func expectLiteralBytes(_ literal: StaticString) throws(JSONReadError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("expected \(literal)") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { throw error("expected \(literal)") }
        index += count
    }

    @inlinable @inline(__always) mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// Moves past the bytes of a string that need no decoding (no quote, backslash or control character),
    /// eight at a time while it can.
    @inlinable @inline(__always) mutating func skipPlainStringBytes() {
        if let base = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= bytes.count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // A high bit marks a byte below 0x20, or one equal to `"` or `\` (zero after the exclusive or).
                let control = (word &- 0x20 &* ones) & ~word & highBits
                let quote = (word ^ (0x22 &* ones)), backslash = (word ^ (0x5C &* ones))
                let special = control | ((quote &- ones) & ~quote & highBits) | ((backslash &- ones) & ~backslash & highBits)
                guard special == 0 else { break }
                index += 8
            }
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
            index += 1
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    /// The slow path of `readString`: the string holds escapes; `start` is just after its opening quote.
    private mutating func readEscapedString(from start: Int) throws(JSONReadError) -> String {
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { break }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: String(try readUnicodeEscape()).utf8)
                default: throw error("invalid escape in a string", at: index - 2)
                }
            case 0..<0x20:
                throw error("control character in a string", at: index - 1)
            default:
                utf8.append(byte)
            }
        }
        throw error("unterminated string", at: start - 1)
    }

    /// Reads the four hex digits after `\u` (and a low surrogate's escape after a high one).
    private mutating func readUnicodeEscape() throws(JSONReadError) -> Character {
        let start = index - 2
        let first = try readHexQuad()
        if (0xD800..<0xDC00).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                return "\u{FFFD}"
            }
            index += 2
            let second = try readHexQuad()
            guard (0xDC00..<0xE000).contains(second) else { throw error("invalid surrogate pair", at: start) }
            let scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            return Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")
        }
        return Character(Unicode.Scalar(first) ?? "\u{FFFD}")
    }

    private mutating func readHexQuad() throws(JSONReadError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// An error at the reader's position, for a value that has the right syntax but the wrong content.
    public func error(_ reason: String) -> JSONReadError {
        JSONReadError(reason, at: index)
    }

    @usableFromInline func error(_ reason: String, at offset: Int) -> JSONReadError {
        JSONReadError(reason, at: offset)
    }
}
