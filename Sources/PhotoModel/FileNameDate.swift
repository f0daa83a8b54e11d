/// A capture time written into a file name by a camera or phone, in the local time it was taken.
///
/// Recognises `IMG_20240131_101500.jpg`, `PXL_20240131_101500123.jpg`, `VID-20240131-WA0001.mp4`,
/// `20240131_101500.jpg`, `Screenshot 2024-01-31 at 10.15.00.png`, `Screen Shot 2024-01-31 at 1.05.00 PM.png`,
/// `Screenshot_2024-01-31-10-15-00.png`, `DJI_20230815143015_0001.JPG`.
public struct FileNameDate: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    /// The first plausible date (1990 to 2099), with a time when one follows it; nil when the name holds none.
    public init?(fileName: String) {
        let digits = Array(fileName.utf8)
        var index = 0
        while index + 8 <= digits.count {
            if let date = Self.date(in: digits, at: index) {
                self = date
                return
            }
            index += 1
        }
        return nil
    }

    /// A date starting at `start`: YYYYMMDD or YYYY-MM-DD (any one of "-", "_", "." between), then an optional time.
    private static func date(in bytes: [UInt8], at start: Int) -> FileNameDate? {
        if start > 0, isDigit(bytes[start - 1]) { return nil }
        var reader = Reader(bytes: bytes, index: start)
        guard let year = reader.number(4), (1990...2099).contains(year) else { return nil }
        let separator = reader.separator()
        guard let month = reader.number(2), (1...12).contains(month), reader.separator() == separator,
              let day = reader.number(2), (1...Self.days(inMonth: month, year: year)).contains(day)
        else { return nil }
        var date = FileNameDate(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        if reader.peek(isDigit) {
            // Digits straight on (DJI's `DJI_20230815143015_0001.JPG`): a time, with or without milliseconds.
            guard let hour = reader.number(2), hour < 24, let minute = reader.number(2), minute < 60,
                  let second = reader.number(2), second < 60 else { return nil }
            _ = reader.number(3)
            guard !reader.peek(isDigit) else { return nil }
            (date.hour, date.minute, date.second) = (hour, minute, second)
            return date
        }
        // macOS writes "at 1.05.00 PM": after " at " the hour may have one digit.
        let isSpelledOut = reader.skip(" at ")
        if !isSpelledOut { _ = reader.separator(allowingSpace: true) }
        if let hour = reader.number(2) ?? (isSpelledOut ? reader.number(1) : nil), hour < 24 {
            let timeSeparator = reader.separator()
            if let minute = reader.number(2), minute < 60, reader.separator() == timeSeparator,
               let second = reader.number(2), second < 60 {
                date.hour = hour
                date.minute = minute
                date.second = second
                switch reader.meridiem() {
                case "PM" where hour < 12: date.hour += 12
                case "AM" where hour == 12: date.hour = 0
                default: break
                }
                return date
            }
        }
        return date
    }

    private init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// A cursor over the name's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index: Int

        mutating func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard FileNameDate.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }

        /// Consumes one of "-", "_", "." (and " " when allowed) and returns it; nil, consuming nothing, otherwise.
        mutating func separator(allowingSpace: Bool = false) -> UInt8? {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            guard byte == 0x2D || byte == 0x5F || byte == 0x2E || (allowingSpace && byte == 0x20) else { return nil }
            index += 1
            return byte
        }

        func peek(_ test: (UInt8) -> Bool) -> Bool { index < bytes.count && test(bytes[index]) }

        /// Consumes " AM" or " PM" (either case; macOS 13 and later put a narrow no-break space before it).
        mutating func meridiem() -> String? {
            for space in [" ", "\u{202F}"] {
                for marker in ["AM", "PM", "am", "pm"] where skip(space + marker) { return marker.uppercased() }
            }
            return nil
        }

        mutating func skip(_ text: String) -> Bool {
            let expected = Array(text.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                return false
            }
            index += expected.count
            return true
        }
    }
}
