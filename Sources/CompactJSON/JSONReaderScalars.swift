/// Scalars: booleans, numbers and strings, read in place.
extension JSONReader {
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
}
