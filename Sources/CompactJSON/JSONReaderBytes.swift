/// Bytes: the reader's position, literals, whitespace, escapes and errors.
extension JSONReader {
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

    static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    /// The slow path of `readString`: the string holds escapes; `start` is just after its opening quote.
    mutating func readEscapedString(from start: Int) throws(JSONReadError) -> String {
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
