/// An instant with the UTC offset it was recorded in, written as RFC 3339 with a numeric offset.
///
/// Photos keep the wall-clock time and offset of where they were taken; sorting uses the instant.
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double
    /// Offset from UTC in seconds, east positive.
    public var utcOffsetSeconds: Int

    public init(secondsSince1970: Double, utcOffsetSeconds: Int = 0) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The instant of a local wall-clock time at the given offset.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                fractionalSecond: Double = 0, utcOffsetSeconds: Int) {
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        let local = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fractionalSecond
        self.init(secondsSince1970: local - Double(utcOffsetSeconds), utcOffsetSeconds: utcOffsetSeconds)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// The calendar day in the timestamp's own local time, as `YYYY-MM-DD`.
    public var localDay: String {
        var bytes: [UInt8] = []
        Self.appendDate(localComponents, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3339 text with a numeric offset, e.g. `2024-01-31T10:15:00.250+01:00`.
    public var rfc3339: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        appendRFC3339(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the `rfc3339` text's UTF-8 to `bytes`.
    public func appendRFC3339(to bytes: inout [UInt8]) {
        let local = localComponents
        Self.appendDate(local, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        Self.appendDecimal(local.hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDecimal(local.minute, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDecimal(local.second, width: 2, to: &bytes)
        if local.milliseconds > 0 {
            bytes.append(UInt8(ascii: "."))
            Self.appendDecimal(local.milliseconds, width: 3, to: &bytes)
        }
        let offset = abs(utcOffsetSeconds)
        bytes.append(UInt8(ascii: utcOffsetSeconds < 0 ? "-" : "+"))
        Self.appendDecimal(offset / 3_600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        Self.appendDecimal(offset % 3_600 / 60, width: 2, to: &bytes)
    }

    /// Parses RFC 3339 (`T` or space separator, optional fraction, `Z` or `±HH:MM`); nil if malformed.
    public init?(rfc3339 text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse(rfc3339: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = parsed
    }

    /// Parses RFC 3339 from UTF-8 bytes, as `init?(rfc3339:)` does.
    public static func parse(rfc3339 bytes: UnsafeRawBufferPointer) -> Timestamp? {
        var text = RFC3339Cursor(bytes: bytes)
        guard let year = text.number(4), text.expect("-"), let month = text.number(2), text.expect("-"),
              let day = text.number(2), text.expect("Tt "), let hour = text.number(2), text.expect(":"),
              let minute = text.number(2), text.expect(":"), let second = text.number(2),
              (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if text.expect(".") {
            var scale = 0.1
            guard let first = text.digit() else { return nil }
            var digit: Int? = first
            while let value = digit {
                fraction += Double(value) * scale
                scale /= 10
                digit = text.digit()
            }
        }
        var offset = 0
        if text.expect("Zz") {
            offset = 0
        } else if text.expect("+-") {
            let sign = bytes[text.index - 1] == UInt8(ascii: "-") ? -1 : 1
            guard let offsetHours = text.number(2), text.expect(":"), let offsetMinutes = text.number(2),
                  offsetHours < 24, offsetMinutes < 60 else { return nil }
            offset = sign * (offsetHours * 3_600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard text.index == bytes.count else { return nil }
        return Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59),
                         fractionalSecond: fraction, utcOffsetSeconds: offset)
    }

    private var localComponents: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, milliseconds: Int) {
        let totalMilliseconds = Int((secondsSince1970 * 1000).rounded()) + utcOffsetSeconds * 1000
        let milliseconds = ((totalMilliseconds % 1000) + 1000) % 1000
        let seconds = (totalMilliseconds - milliseconds) / 1000
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        let civil = Self.civil(fromDays: days)
        return (civil.year, civil.month, civil.day, secondOfDay / 3_600, secondOfDay % 3_600 / 60, secondOfDay % 60, milliseconds)
    }

    private static func appendDate(_ local: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, milliseconds: Int),
                                   to bytes: inout [UInt8]) {
        if local.year < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDecimal(abs(local.year), width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDecimal(local.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDecimal(local.day, width: 2, to: &bytes)
    }

    /// Appends a non-negative `value` in decimal, zero-padded to at least `width` digits.
    private static func appendDecimal(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var digits = 1, power = 1
        while power <= value / 10 {
            power *= 10
            digits += 1
        }
        for _ in digits..<max(width, digits) { bytes.append(UInt8(ascii: "0")) }
        while power > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / power % 10))
            power /= 10
        }
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Timestamp: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try String(from: decoder)
        guard let parsed = Timestamp(rfc3339: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an RFC 3339 date: \(text)"))
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        try rfc3339.encode(to: encoder)
    }
}

/// Reads RFC 3339 text a field at a time.
private struct RFC3339Cursor {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    /// A number of exactly `digits` decimal digits.
    @inline(__always) mutating func number(_ digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for offset in index..<index + digits {
            let digit = bytes[offset] &- 48
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        index += digits
        return value
    }

    /// One decimal digit, if the next byte is one.
    @inline(__always) mutating func digit() -> Int? {
        guard index < bytes.count, bytes[index] &- 48 < 10 else { return nil }
        index += 1
        return Int(bytes[index - 1] &- 48)
    }

    /// Consumes the next byte when it is one of `accepted`.
    @inline(__always) mutating func expect(_ accepted: StaticString) -> Bool {
        guard index < bytes.count else { return false }
        for offset in 0..<accepted.utf8CodeUnitCount where accepted.utf8Start[offset] == bytes[index] {
            index += 1
            return true
        }
        return false
    }
}
