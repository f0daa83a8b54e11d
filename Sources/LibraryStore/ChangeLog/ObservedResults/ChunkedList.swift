/// Elements kept in one order, in chunks so that inserting into a million of them stays cheap.
struct ChunkedList<Element: Equatable & Sendable>: Sendable {
    private static var chunkCapacity: Int { 2_048 }

    private let precedes: @Sendable (Element, Element) -> Bool
    private var chunks: [[Element]]
    private(set) var count: Int

    /// `elements` must already be in the order of `precedes`.
    init(sorted elements: [Element], by precedes: @escaping @Sendable (Element, Element) -> Bool) {
        self.precedes = precedes
        count = elements.count
        chunks = stride(from: 0, to: elements.count, by: Self.chunkCapacity).map {
            Array(elements[$0..<min($0 + Self.chunkCapacity, elements.count)])
        }
    }

    /// The elements in order.
    var elements: FlattenSequence<[[Element]]> { chunks.joined() }

    /// Calls `body` with the first `limit` elements in order, a chunk at a time, in place.
    func forEachChunk(prefix limit: Int, _ body: (UnsafeBufferPointer<Element>) -> Void) {
        var left = limit
        for chunk in chunks where left > 0 {
            chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0.prefix(left))) }
            left -= chunk.count
        }
    }

    /// The chunk and offset where `element` is or would be inserted, and the rank that is.
    private func location(of element: Element) -> (chunk: Int, offset: Int, rank: Int) {
        var rank = 0
        for (index, chunk) in chunks.enumerated() {
            if index == chunks.count - 1 || !precedes(chunk[chunk.count - 1], element) {
                var low = 0, high = chunk.count
                while low < high {
                    let middle = (low + high) / 2
                    if precedes(chunk[middle], element) { low = middle + 1 } else { high = middle }
                }
                return (index, low, rank + low)
            }
            rank += chunk.count
        }
        return (0, 0, 0)
    }

    /// The element that neither precedes nor follows `probe`, with its rank; nil when there is none.
    func equivalent(to probe: Element) -> (element: Element, rank: Int)? {
        guard !chunks.isEmpty else { return nil }
        let place = location(of: probe)
        guard place.offset < chunks[place.chunk].count else { return nil }
        let found = chunks[place.chunk][place.offset]
        return precedes(probe, found) ? nil : (found, place.rank)
    }

    /// The position of `element`; nil when it is not there.
    func rank(of element: Element) -> Int? {
        equivalent(to: element).flatMap { $0.element == element ? $0.rank : nil }
    }

    /// Removes `element`, returning the position it had; nil when it was not there.
    mutating func remove(_ element: Element) -> Int? {
        guard !chunks.isEmpty else { return nil }
        let place = location(of: element)
        guard place.offset < chunks[place.chunk].count, chunks[place.chunk][place.offset] == element else { return nil }
        chunks[place.chunk].remove(at: place.offset)
        if chunks[place.chunk].isEmpty { chunks.remove(at: place.chunk) }
        count -= 1
        return place.rank
    }

    /// Inserts `element`, returning its position.
    @discardableResult
    mutating func insert(_ element: Element) -> Int {
        guard !chunks.isEmpty else {
            chunks = [[element]]
            count = 1
            return 0
        }
        let place = location(of: element)
        chunks[place.chunk].insert(element, at: place.offset)
        if chunks[place.chunk].count > 2 * Self.chunkCapacity {
            let upper = Array(chunks[place.chunk][Self.chunkCapacity...])
            chunks[place.chunk].removeSubrange(Self.chunkCapacity...)
            chunks.insert(upper, at: place.chunk + 1)
        }
        count += 1
        return place.rank
    }
}
