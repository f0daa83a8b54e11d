/// One reply of an `observe` stream: the current results first, then one event per committed transaction.
public struct LibraryChangeEvent: Sendable, Hashable, Codable {
    /// The library's change token after this event.
    public var token: String
    /// The token of the event before; nil for the first event, the snapshot.
    public var previousToken: String?
    /// The objects the transaction inserted, changed or removed; empty for the snapshot.
    public var objects: [ObjectChange]
    /// The named results: every one in the snapshot, afterwards only those the transaction changed.
    public var results: [FetchResultChange]

    /// Whether this is the first event, holding each result's full ids.
    public var isSnapshot: Bool { previousToken == nil }

    enum CodingKeys: String, CodingKey { case token, previousToken, objects, results }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decode(String.self, forKey: .token)
        previousToken = try container.decodeIfPresent(String.self, forKey: .previousToken)
        objects = try container.decodeIfPresent([ObjectChange].self, forKey: .objects) ?? []
        results = try container.decode([FetchResultChange].self, forKey: .results)
    }
}

/// How one named result changed, PhotoKit's `PHFetchResultChangeDetails` (or its full ids in a snapshot).
///
/// `removedIndexes`, `changedIndexesBefore` and each move's `from` are positions in the previous result;
/// `insertedIndexes`, `changedIndexes` and each move's `to` are positions in the new one.
public struct FetchResultChange: Sendable, Hashable, Codable {
    /// The name the query was registered under.
    public var name: String
    /// The size of the new result.
    public var count: Int
    /// False (or absent) when `ids` holds the full new result instead of a diff.
    public var hasIncrementalChanges: Bool?
    public var removedIndexes: [Int]?
    public var insertedIndexes: [Int]?
    /// The ids at `insertedIndexes`, in the same order.
    public var insertedIds: [String]?
    public var changedIndexes: [Int]?
    /// The ids at `changedIndexes`, in the same order.
    public var changedIds: [String]?
    public var changedIndexesBefore: [Int]?
    public var moves: [FetchResultMove]?
    /// The full ordered ids of the new result, when sent.
    public var ids: [String]?

    /// The new result's ids, from the previous result's ids and this change.
    public func applied(to previous: [String]) -> [String] {
        if let ids { return ids }
        let moves = moves ?? []
        let vacated = Set(removedIndexes ?? []).union(moves.map(\.from))
        var result = previous.indices.filter { !vacated.contains($0) }.map { previous[$0] }
        let inserted = zip(insertedIndexes ?? [], insertedIds ?? []).map { (index: $0, id: $1) }
        let moved = moves.filter { previous.indices.contains($0.from) }.map { (index: $0.to, id: previous[$0.from]) }
        for placement in (inserted + moved).sorted(by: { $0.index < $1.index }) {
            result.insert(placement.id, at: min(placement.index, result.count))
        }
        return result
    }
}

/// An object that moved within a result: from its position in the previous result to its position in the new one.
public struct FetchResultMove: Sendable, Hashable, Codable {
    public var from: Int
    public var to: Int
}
