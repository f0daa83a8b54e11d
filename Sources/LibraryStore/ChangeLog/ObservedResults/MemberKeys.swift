import CompactJSON
import GRDB
import GRDBSQLite

/// One value of a sort key, ordered as SQLite orders them: NULL, then numbers, then text (byte order).
enum SortValue: Sendable, Hashable {
    case null
    case number(Double)
    case text(String)

    /// The value in `column` of the row `statement` is on.
    init(column: Int32, of statement: SQLiteStatement) {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: self = .number(Double(sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: self = .number(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: self = .text(String(decoding: columnBytes(column, of: statement), as: UTF8.self))
        default: self = .null
        }
    }

    /// -1, 0 or 1 as `self` sorts before, with or after `other` in ascending order.
    func compare(_ other: SortValue) -> Int {
        switch (self, other) {
        case (.null, .null): 0
        case (.null, _): -1
        case (_, .null): 1
        case let (.number(a), .number(b)): a < b ? -1 : (a > b ? 1 : 0)
        case (.number, .text): -1
        case (.text, .number): 1
        case let (.text(a), .text(b)): a == b ? 0 : (a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1)
        }
    }
}

/// A member's sort-key values, held inline for the usual single key term.
enum SortKey: Sendable, Hashable {
    case single(SortValue)
    case multiple([SortValue])

    subscript(term: Int) -> SortValue {
        switch self {
        case .single(let value): value
        case .multiple(let values): values[term]
        }
    }
}

/// An asset id in 16 bytes when it is a lowercase UUID, as the library makes them, else as text.
///
/// Either way ids order as their text does: byte order of lowercase hex digits is their numeric order.
enum MemberID: Sendable, Hashable {
    case uuid(UInt64, UInt64)
    case text(String)

    init(_ id: String) {
        var id = id
        self = id.withUTF8 { Self.parseUUID(UnsafeRawBufferPointer($0)) }.map { .uuid($0.high, $0.low) } ?? .text(id)
    }

    /// The id whose UTF-8 text is `bytes`.
    init(utf8 bytes: UnsafeRawBufferPointer) {
        self = Self.parseUUID(bytes).map { .uuid($0.high, $0.low) } ?? .text(String(decoding: bytes, as: UTF8.self))
    }

    /// The id in `column` of the row `statement` is on, read in place.
    init(column: Int32, of statement: SQLiteStatement) {
        self.init(utf8: columnBytes(column, of: statement))
    }

    /// The two halves of a lowercase UUID's 32 hex digits; nil for any other text.
    private static func parseUUID(_ text: UnsafeRawBufferPointer) -> (high: UInt64, low: UInt64)? {
        let dash = UInt8(ascii: "-")
        guard text.count == 36, text[8] == dash, text[13] == dash, text[18] == dash, text[23] == dash else { return nil }
        func word(_ offset: Int) -> UInt64 { text.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        func half(_ offset: Int) -> UInt64 { UInt64(text.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        var valid = true
        let high = hexDigits(word(0), valid: &valid) << 32 | hexDigits(half(9) | half(14) << 32, valid: &valid)
        let low = hexDigits(half(19) | half(24) << 32, valid: &valid) << 32 | hexDigits(word(28), valid: &valid)
        return valid ? (high, low) : nil
    }

    /// The value of eight lowercase hex digits loaded as a little-endian word (the first digit in the lowest
    /// byte), all eight at once; `valid` becomes false when any byte is not such a digit.
    private static func hexDigits(_ word: UInt64, valid: inout Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits = ones << 7
        // For bytes below 0x80, adding 0x80 - bound sets a byte's high bit exactly when the byte is >= bound.
        func atLeast(_ bound: UInt64) -> UInt64 { (word &+ ones &* (0x80 - bound)) & highBits }
        let isDecimal = atLeast(0x30) & ~atLeast(0x3A), isLetter = atLeast(0x61) & ~atLeast(0x67)
        valid = valid && word & highBits == 0 && isDecimal | isLetter == highBits
        // '0'...'9' are 0x30...0x39 and 'a'...'f' 0x61...0x66: the low four bits, plus 9 for a letter.
        let nibbles = (word & (ones &* 0x0F)) &+ (isLetter >> 7) &* 9
        // Gather the nibbles, first digit highest: pairs into bytes, bytes into 16-bit halves, then the two halves.
        let bytes = (nibbles & 0x00FF_00FF_00FF_00FF) << 4 | (nibbles >> 8) & 0x00FF_00FF_00FF_00FF
        let halves = (bytes & 0x0000_FFFF_0000_FFFF) << 8 | (bytes >> 16) & 0x0000_FFFF_0000_FFFF
        return (halves & 0xFFFF) << 16 | (halves >> 32) & 0xFFFF
    }

    var string: String {
        switch self {
        case .text(let text): text
        case .uuid(let high, let low): Self.withUUIDText(high, low, quoted: false) { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Writes the id as a JSON string.
    func write(to json: inout JSONWriter) {
        switch self {
        case .text(let text): json.string(text)
        // One copy of the quoted text: a snapshot writes a million of them.
        case .uuid(let high, let low): Self.withUUIDText(high, low, quoted: true) { json.encoded($0) }
        }
    }

    /// Calls `body` with the 36 bytes of text of the UUID `high`, `low` (lowercase), made on the stack; `quoted`
    /// adds a double quote before and after them.
    private static func withUUIDText<Result>(_ high: UInt64, _ low: UInt64, quoted: Bool,
                                             _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &text) { buffer in
            let start = quoted ? 1 : 0
            let middle = hexText(high & 0xFFFF_FFFF), lowerMiddle = hexText(low >> 32)
            buffer.storeBytes(of: hexText(high >> 32), toByteOffset: start, as: UInt64.self)
            buffer.storeBytes(of: UInt32(truncatingIfNeeded: middle), toByteOffset: start + 9, as: UInt32.self)
            buffer.storeBytes(of: UInt32(truncatingIfNeeded: middle >> 32), toByteOffset: start + 14, as: UInt32.self)
            buffer.storeBytes(of: UInt32(truncatingIfNeeded: lowerMiddle), toByteOffset: start + 19, as: UInt32.self)
            buffer.storeBytes(of: UInt32(truncatingIfNeeded: lowerMiddle >> 32), toByteOffset: start + 24, as: UInt32.self)
            buffer.storeBytes(of: hexText(low & 0xFFFF_FFFF), toByteOffset: start + 28, as: UInt64.self)
            let dash = UInt8(ascii: "-")
            buffer[start + 8] = dash; buffer[start + 13] = dash; buffer[start + 18] = dash; buffer[start + 23] = dash
            guard quoted else { return body(UnsafeRawBufferPointer(rebasing: buffer[0..<36])) }
            buffer[0] = UInt8(ascii: "\""); buffer[37] = UInt8(ascii: "\"")
            return body(UnsafeRawBufferPointer(rebasing: buffer[0..<38]))
        }
    }

    /// The eight lowercase hex digits of a 32-bit value as a little-endian word (the first digit in the lowest
    /// byte): `hexDigits` undone.
    private static func hexText(_ value: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Spread the digits, first one lowest: the two 16-bit halves, then bytes, then nibbles.
        let halves = value >> 16 | (value & 0xFFFF) << 32
        let bytes = (halves >> 8) & 0x0000_00FF_0000_00FF | (halves & 0x0000_00FF_0000_00FF) << 16
        let nibbles = (bytes >> 4) & 0x000F_000F_000F_000F | (bytes & 0x000F_000F_000F_000F) << 8
        // '0' plus the digit, plus the 39 between '9' + 1 and 'a' for digits of 10 and more.
        let isLetter = ((nibbles &+ ones &* 0x76) & ones << 7) >> 7
        return nibbles &+ ones &* 0x30 &+ isLetter &* 39
    }

    /// Whether `self` sorts before `other`, as their text would.
    func precedes(_ other: MemberID) -> Bool {
        if case .uuid(let high, let low) = self, case .uuid(let otherHigh, let otherLow) = other {
            return (high, low) < (otherHigh, otherLow)
        }
        return string.utf8.lexicographicallyPrecedes(other.string.utf8)
    }
}

/// The text of `column` of the row `statement` is on, valid until the statement moves on.
private func columnBytes(_ column: Int32, of statement: SQLiteStatement) -> UnsafeRawBufferPointer {
    guard let text = sqlite3_column_text(statement, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column)))
}
