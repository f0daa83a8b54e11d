import Dispatch
import Synchronization

/// A form in which a sorted result holds its members.
protocol ResultEntry: Equatable, Sendable {
    var id: MemberID { get }
    /// This form of `entry`; nil when it cannot hold it.
    init?(_ entry: SortedEntry)
    /// An entry with `id` (and any key), to look the member up by id; nil when this form cannot hold `id`.
    static func probe(for id: MemberID) -> Self?
    /// The order of a query whose key terms are `ascending` or descending, then ids ascending.
    static func queryOrder(ascending: [Bool]) -> @Sendable (Self, Self) -> Bool
    /// Ascending ids.
    static var idOrder: @Sendable (Self, Self) -> Bool { get }
    /// `entries` in `idOrder`.
    static func sortedByID(_ entries: [Self]) -> [Self]
}

/// A result member: its sort-key values and id (the final tie-breaker, ascending).
struct SortedEntry: ResultEntry, Hashable {
    var key: SortKey
    var id: MemberID

    init(key: SortKey, id: MemberID) {
        self.key = key
        self.id = id
    }

    init(_ entry: SortedEntry) {
        self = entry
    }

    /// The entry `packed` holds, in a result of `termCount` key terms.
    init(_ packed: PackedEntry, termCount: Int) {
        let value = packed.keyValue
        self.init(key: termCount == 1 ? .single(value) : .multiple([]), id: packed.id)
    }

    static func probe(for id: MemberID) -> SortedEntry? {
        SortedEntry(key: .single(.null), id: id)
    }

    static func queryOrder(ascending: [Bool]) -> @Sendable (SortedEntry, SortedEntry) -> Bool {
        { lhs, rhs in
            for (index, ascending) in ascending.enumerated() {
                let comparison = lhs.key[index].compare(rhs.key[index])
                if comparison != 0 { return ascending ? comparison < 0 : comparison > 0 }
            }
            return lhs.id.precedes(rhs.id)
        }
    }

    static let idOrder: @Sendable (SortedEntry, SortedEntry) -> Bool = { $0.id.precedes($1.id) }

    static func sortedByID(_ entries: [SortedEntry]) -> [SortedEntry] {
        entries.sorted(by: idOrder)
    }
}

/// A member with a UUID id and at most one key term, a number or null, in 24 bytes: what nearly every observed
/// result holds (a million members take 24 MB, where the general `SortedEntry` and its lookup took 150).
struct PackedEntry: ResultEntry {
    /// The key as a number that orders as the key does: 0 for null (or no key term), then every number.
    var key: UInt64
    var high: UInt64
    var low: UInt64

    init?(_ entry: SortedEntry) {
        guard case .uuid(let high, let low) = entry.id else { return nil }
        switch entry.key {
        case .single(.null): key = 0
        case .multiple(let values) where values.isEmpty: key = 0
        case .single(.number(let number)) where !number.isNaN:
            // Flipping the sign bit of a positive double (every bit of a negative one) orders the bits as the
            // numbers; -0 is 0 for SQLite, so it is made 0 first. The smallest code, -infinity's, is above 0.
            let bits = (number == 0 ? 0 : number).bitPattern
            key = bits >> 63 == 1 ? ~bits : bits | 1 << 63
        default: return nil
        }
        self.high = high
        self.low = low
    }

    private init(key: UInt64, high: UInt64, low: UInt64) {
        self.key = key
        self.high = high
        self.low = low
    }

    var id: MemberID { .uuid(high, low) }

    /// The key term's value.
    var keyValue: SortValue {
        guard key != 0 else { return .null }
        return .number(Double(bitPattern: key >> 63 == 1 ? key & ~(1 << 63) : ~key))
    }

    static func probe(for id: MemberID) -> PackedEntry? {
        guard case .uuid(let high, let low) = id else { return nil }
        return PackedEntry(key: 0, high: high, low: low)
    }

    static func queryOrder(ascending: [Bool]) -> @Sendable (PackedEntry, PackedEntry) -> Bool {
        let ascending = ascending.first ?? true
        return { lhs, rhs in
            if lhs.key != rhs.key { return (lhs.key < rhs.key) == ascending }
            return idPrecedes(lhs, rhs)
        }
    }

    static let idOrder: @Sendable (PackedEntry, PackedEntry) -> Bool = idPrecedes

    /// Whether `lhs`'s id sorts before `rhs`'s.
    private static func idPrecedes(_ lhs: PackedEntry, _ rhs: PackedEntry) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// Random UUIDs spread evenly over their leading bits: a counting pass places each entry in its bucket of
    /// those bits, then each small bucket is sorted (a million entries in tens of milliseconds).
    static func sortedByID(_ entries: [PackedEntry]) -> [PackedEntry] {
        let bits = min(16, max(1, Int.bitWidth - entries.count.leadingZeroBitCount))
        let bucketCount = 1 << bits
        func bucket(_ entry: PackedEntry) -> Int { Int(entry.high >> UInt64(64 - bits)) }
        var starts = [Int](repeating: 0, count: bucketCount + 1)
        for entry in entries { starts[bucket(entry) + 1] += 1 }
        for index in 1...bucketCount { starts[index] += starts[index - 1] }
        var next = starts
        var sorted = [PackedEntry](unsafeUninitializedCapacity: entries.count) { buffer, initialized in
            for entry in entries {
                buffer.initializeElement(at: next[bucket(entry)], to: entry)
                next[bucket(entry)] += 1
            }
            initialized = entries.count
        }
        for index in 0..<bucketCount where starts[index + 1] - starts[index] > 1 {
            sorted[starts[index]..<starts[index + 1]].sort(by: idPrecedes)
        }
        return sorted
    }
}

/// A result kept in its query's order, its members also found by id.
struct SortedResult<Entry: ResultEntry>: Sendable {
    /// Per key term: ascending or descending.
    let ascending: [Bool]
    private var ordered: ChunkedList<Entry>
    private var byID: ChunkedList<Entry>

    /// `entries` must already be in order. A large result builds its two lists on two cores.
    init(sorted entries: [Entry], ascending: [Bool]) {
        self.ascending = ascending
        let order = Entry.queryOrder(ascending: ascending)
        guard entries.count >= 100_000 else {
            ordered = ChunkedList(sorted: entries, by: order)
            byID = ChunkedList(sorted: Entry.sortedByID(entries), by: Entry.idOrder)
            return
        }
        let lists = Mutex<(ordered: ChunkedList<Entry>?, byID: ChunkedList<Entry>?)>((nil, nil))
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                let list = ChunkedList(sorted: Entry.sortedByID(entries), by: Entry.idOrder)
                lists.withLock { $0.byID = list }
            } else {
                let list = ChunkedList(sorted: entries, by: order)
                lists.withLock { $0.ordered = list }
            }
        }
        (ordered, byID) = lists.withLock { ($0.ordered!, $0.byID!) }
    }

    var count: Int { ordered.count }

    /// The members in order.
    var entries: FlattenSequence<[[Entry]]> { ordered.elements }

    /// Calls `body` with the first `limit` members in order, some at a time, in place.
    func forEachChunk(prefix limit: Int, _ body: (UnsafeBufferPointer<Entry>) -> Void) {
        ordered.forEachChunk(prefix: limit, body)
    }

    /// The ordered ids.
    var ids: [String] {
        var ids: [String] = []
        ids.reserveCapacity(count)
        for entry in entries { ids.append(entry.id.string) }
        return ids
    }

    /// The first `limit` ids.
    func ids(prefix limit: Int) -> [String] {
        entries.prefix(limit).map(\.id.string)
    }

    /// The member `id`'s entry; nil when it is not a member.
    func entry(for id: MemberID) -> Entry? {
        Entry.probe(for: id).flatMap { byID.equivalent(to: $0)?.element }
    }

    /// The position of `entry`; nil when it is not there.
    func rank(of entry: Entry) -> Int? {
        ordered.rank(of: entry)
    }

    /// Removes `entry`, returning the position it had; nil when it was not there.
    mutating func remove(_ entry: Entry) -> Int? {
        guard let rank = ordered.remove(entry) else { return nil }
        _ = byID.remove(entry)
        return rank
    }

    /// Inserts `entry` (whose id is not a member yet), returning its position.
    @discardableResult
    mutating func insert(_ entry: Entry) -> Int {
        byID.insert(entry)
        return ordered.insert(entry)
    }
}
