import GRDB

/// One value of a sort key, ordered as SQLite orders them: NULL, then numbers, then text (byte order).
enum SortValue: Sendable, Hashable {
    case null
    case number(Double)
    case text(String)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null, .blob: self = .null
        case .int64(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .string(let text): self = .text(text)
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

    /// The two halves of a lowercase UUID's 32 hex digits; nil for any other text.
    private static func parseUUID(_ text: UnsafeRawBufferPointer) -> (high: UInt64, low: UInt64)? {
        let dash = UInt8(ascii: "-")
        guard text.count == 36, text[8] == dash, text[13] == dash, text[18] == dash, text[23] == dash else { return nil }
        var invalid = false
        /// The value of the hex digits `range`, shifted in after `value`; without a branch per digit.
        func digits(_ range: Range<Int>, after value: UInt64) -> UInt64 {
            var value = value
            for offset in range {
                let byte = text[offset]
                let isDecimal = byte &- UInt8(ascii: "0") < 10, isLetter = byte &- UInt8(ascii: "a") < 6
                invalid = invalid || !(isDecimal || isLetter)
                // '0'...'9' are 0x30...0x39 and 'a'...'f' 0x61...0x66: the low four bits, plus 9 for a letter.
                value = value << 4 | UInt64((byte & 0xF) &+ (isLetter ? 9 : 0))
            }
            return value
        }
        let high = digits(14..<18, after: digits(9..<13, after: digits(0..<8, after: 0)))
        let low = digits(24..<36, after: digits(19..<23, after: 0))
        return invalid ? nil : (high, low)
    }

    var string: String {
        switch self {
        case .text(let text):
            return text
        case .uuid(let high, let low):
            return String(unsafeUninitializedCapacity: 36) { text in
                var written = 0
                for index in 0..<32 {
                    if index == 8 || index == 12 || index == 16 || index == 20 {
                        text[written] = UInt8(ascii: "-")
                        written += 1
                    }
                    let nibble = UInt8(truncatingIfNeeded: (index < 16 ? high : low) >> UInt64(60 - 4 * (index % 16))) & 0xF
                    text[written] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                    written += 1
                }
                return written
            }
        }
    }

    /// Whether `self` sorts before `other`, as their text would.
    func precedes(_ other: MemberID) -> Bool {
        if case .uuid(let high, let low) = self, case .uuid(let otherHigh, let otherLow) = other {
            return (high, low) < (otherHigh, otherLow)
        }
        return string.utf8.lexicographicallyPrecedes(other.string.utf8)
    }
}

/// A result member: its sort-key values and id (the final tie-breaker, ascending).
struct SortedEntry: Sendable, Hashable {
    var key: SortKey
    var id: MemberID
}

/// A result kept in its query's order, in chunks so that inserting into a million entries stays cheap.
struct SortedResult: Sendable {
    private static let chunkCapacity = 2_048

    /// Per key term: ascending or descending.
    let ascending: [Bool]
    private var chunks: [[SortedEntry]]
    private(set) var count: Int

    /// `entries` must already be in order.
    init(sorted entries: [SortedEntry], ascending: [Bool]) {
        self.ascending = ascending
        count = entries.count
        chunks = stride(from: 0, to: entries.count, by: Self.chunkCapacity).map {
            Array(entries[$0..<min($0 + Self.chunkCapacity, entries.count)])
        }
    }

    /// The ordered ids.
    var ids: [String] {
        var ids: [String] = []
        ids.reserveCapacity(count)
        for chunk in chunks { ids.append(contentsOf: chunk.lazy.map(\.id.string)) }
        return ids
    }

    /// The first `limit` ids.
    func ids(prefix limit: Int) -> [String] {
        var ids: [String] = []
        for chunk in chunks {
            for entry in chunk {
                guard ids.count < limit else { return ids }
                ids.append(entry.id.string)
            }
        }
        return ids
    }

    /// Whether `lhs` sorts before `rhs`.
    func precedes(_ lhs: SortedEntry, _ rhs: SortedEntry) -> Bool {
        for (index, ascending) in ascending.enumerated() {
            let comparison = lhs.key[index].compare(rhs.key[index])
            if comparison != 0 { return ascending ? comparison < 0 : comparison > 0 }
        }
        return lhs.id.precedes(rhs.id)
    }

    /// The chunk and position within it where `entry` is or would be inserted.
    private func location(of entry: SortedEntry) -> (chunk: Int, offset: Int, rank: Int) {
        var rank = 0
        for (index, chunk) in chunks.enumerated() {
            if index == chunks.count - 1 || !precedes(chunk[chunk.count - 1], entry) {
                var low = 0, high = chunk.count
                while low < high {
                    let middle = (low + high) / 2
                    if precedes(chunk[middle], entry) { low = middle + 1 } else { high = middle }
                }
                return (index, low, rank + low)
            }
            rank += chunk.count
        }
        return (0, 0, 0)
    }

    /// Removes `entry`, returning the position it had; nil when it was not there.
    mutating func remove(_ entry: SortedEntry) -> Int? {
        guard !chunks.isEmpty else { return nil }
        let place = location(of: entry)
        guard place.offset < chunks[place.chunk].count, chunks[place.chunk][place.offset] == entry else { return nil }
        chunks[place.chunk].remove(at: place.offset)
        if chunks[place.chunk].isEmpty { chunks.remove(at: place.chunk) }
        count -= 1
        return place.rank
    }

    /// Inserts `entry`, returning its position.
    @discardableResult
    mutating func insert(_ entry: SortedEntry) -> Int {
        guard !chunks.isEmpty else {
            chunks = [[entry]]
            count = 1
            return 0
        }
        let place = location(of: entry)
        chunks[place.chunk].insert(entry, at: place.offset)
        if chunks[place.chunk].count > 2 * Self.chunkCapacity {
            let upper = Array(chunks[place.chunk][Self.chunkCapacity...])
            chunks[place.chunk].removeSubrange(Self.chunkCapacity...)
            chunks.insert(upper, at: place.chunk + 1)
        }
        count += 1
        return place.rank
    }

    /// The position of `entry`, which must be present.
    func rank(of entry: SortedEntry) -> Int? {
        guard !chunks.isEmpty else { return nil }
        let place = location(of: entry)
        guard place.offset < chunks[place.chunk].count, chunks[place.chunk][place.offset] == entry else { return nil }
        return place.rank
    }
}
