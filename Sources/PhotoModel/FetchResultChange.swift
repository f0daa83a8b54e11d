import CompactJSON

/// How one named result changed, PhotoKit's `PHFetchResultChangeDetails` (or its full ids in a snapshot).
///
/// `removedIndexes`, `changedIndexesBefore` and each move's `from` are positions in the previous result;
/// `insertedIndexes`, `changedIndexes` and each move's `to` are positions in the new one. The new result is
/// the previous one without the removed and moved-from positions, with inserted and moved objects placed at
/// their new positions in ascending order.
public struct FetchResultChange: Sendable, Hashable, Codable {
    /// The name the query was registered under.
    public var name: String
    /// The size of the new result.
    public var count: Int
    /// False when `ids` holds the full new result instead of a diff; absent in a snapshot.
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

    public init(name: String, count: Int, hasIncrementalChanges: Bool? = nil, removedIndexes: [Int]? = nil,
                insertedIndexes: [Int]? = nil, insertedIds: [String]? = nil, changedIndexes: [Int]? = nil,
                changedIds: [String]? = nil, changedIndexesBefore: [Int]? = nil, moves: [FetchResultMove]? = nil,
                ids: [String]? = nil) {
        self.name = name
        self.count = count
        self.hasIncrementalChanges = hasIncrementalChanges
        self.removedIndexes = removedIndexes
        self.insertedIndexes = insertedIndexes
        self.insertedIds = insertedIds
        self.changedIndexes = changedIndexes
        self.changedIds = changedIds
        self.changedIndexesBefore = changedIndexesBefore
        self.moves = moves
        self.ids = ids
    }

    /// A snapshot (`incremental` nil) or non-incremental change (`incremental` false) carrying every id.
    public static func full(name: String, ids: [String], incremental: Bool? = false) -> FetchResultChange {
        FetchResultChange(name: name, count: ids.count, hasIncrementalChanges: incremental, ids: ids)
    }

    /// Whether applying this change leaves the result as it was.
    public var isEmpty: Bool {
        ids == nil && (removedIndexes ?? []).isEmpty && (insertedIndexes ?? []).isEmpty
            && (changedIndexes ?? []).isEmpty && (moves ?? []).isEmpty
    }

    /// The exact change from `old` to `new` (ids unique in each); `changed` names objects whose properties changed.
    ///
    /// Objects kept in both lists move only when they leave the longest run that kept its relative order.
    public static func difference(name: String, from old: [String], to new: [String], changed: Set<String>) -> FetchResultChange {
        var oldIndex: [String: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (index, id) in old.enumerated() { oldIndex[id] = index }
        let newSet = Set(new)
        let removed = old.indices.filter { !newSet.contains(old[$0]) }
        var inserted: [Int] = []
        var kept: [(newIndex: Int, oldIndex: Int)] = []
        for (index, id) in new.enumerated() {
            if let previous = oldIndex[id] { kept.append((index, previous)) } else { inserted.append(index) }
        }
        let stay = longestIncreasingRun(kept.map(\.oldIndex))
        var moves: [FetchResultMove] = []
        var changedPairs: [(newIndex: Int, oldIndex: Int)] = []
        for (position, pair) in kept.enumerated() {
            if !stay.contains(position) { moves.append(FetchResultMove(from: pair.oldIndex, to: pair.newIndex)) }
            if changed.contains(new[pair.newIndex]) { changedPairs.append(pair) }
        }
        return FetchResultChange(
            name: name, count: new.count, hasIncrementalChanges: true, removedIndexes: removed,
            insertedIndexes: inserted, insertedIds: inserted.map { new[$0] },
            changedIndexes: changedPairs.map(\.newIndex), changedIds: changedPairs.map { new[$0.newIndex] },
            changedIndexesBefore: changedPairs.map(\.oldIndex), moves: moves)
    }

    /// The positions in `values` of one longest strictly increasing subsequence (patience sorting, O(n log n)).
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []            // position in `values` of the smallest tail of each run length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run = Set<Int>()
        var position = tails.last ?? -1
        while position >= 0 {
            run.insert(position)
            position = previous[position]
        }
        return run
    }

    /// The new result's ids, from the previous result's ids and this change.
    public func applied(to previous: [String]) -> [String] {
        if let ids { return ids }
        return applied(to: previous) { $0 }
    }

    /// `applied(to:)` for a result kept in another form: `element` makes an element of an inserted id. A
    /// change that carries the full ids (`ids`) is for the caller to read.
    public func applied<Element>(to previous: [Element], element: (String) -> Element) -> [Element] {
        let moves = moves ?? []
        let vacated = Set(removedIndexes ?? []).union(moves.map(\.from))
        var result = previous.indices.filter { !vacated.contains($0) }.map { previous[$0] }
        let inserted = zip(insertedIndexes ?? [], insertedIds ?? []).map { (index: $0, element: element($1)) }
        let moved = moves.filter { previous.indices.contains($0.from) }.map { (index: $0.to, element: previous[$0.from]) }
        for placement in (inserted + moved).sorted(by: { $0.index < $1.index }) {
            result.insert(placement.element, at: min(placement.index, result.count))
        }
        return result
    }
}

/// An object that moved within a result: from its position in the previous result to its position in the new one.
public struct FetchResultMove: Sendable, Hashable, Codable {
    public var from: Int
    public var to: Int

    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}

extension FetchResultChange: JSONReadable {
    /// Reads the change as its `Decodable` conformance does; a snapshot's ids are read without `JSONDecoder`.
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var name: String?, count: Int?
        self.init(name: "", count: 0)
        try json.readObject { key, json throws(JSONReadError) in
            func indexes() throws(JSONReadError) -> [Int]? {
                try json.readOptional { json throws(JSONReadError) in try json.readArray { json throws(JSONReadError) in try json.readInt() } }
            }
            func identifiers() throws(JSONReadError) -> [String]? {
                try json.readOptional { json throws(JSONReadError) in try json.readArray { json throws(JSONReadError) in try json.readString() } }
            }
            switch key {
            case "name": name = try json.readString()
            case "count": count = try json.readInt()
            case "hasIncrementalChanges": hasIncrementalChanges = try json.readOptional { json throws(JSONReadError) in try json.readBool() }
            case "removedIndexes": removedIndexes = try indexes()
            case "insertedIndexes": insertedIndexes = try indexes()
            case "insertedIds": insertedIds = try identifiers()
            case "changedIndexes": changedIndexes = try indexes()
            case "changedIds": changedIds = try identifiers()
            case "changedIndexesBefore": changedIndexesBefore = try indexes()
            case "moves": moves = try json.readOptional { json throws(JSONReadError) in try json.readArray(of: FetchResultMove.self) }
            case "ids": ids = try identifiers()
            default: try json.skipValue()
            }
        }
        guard let name, let count else { throw json.error("a result change lacks its name or count") }
        self.name = name
        self.count = count
    }
}

extension FetchResultMove: JSONWritable, JSONReadable {
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("from"); json.int(from)
        json.key("to"); json.int(to)
        json.endObject()
    }

    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var from: Int?, to: Int?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "from": from = try json.readInt()
            case "to": to = try json.readInt()
            default: try json.skipValue()
            }
        }
        guard let from, let to else { throw json.error("a move lacks its from or to") }
        self.init(from: from, to: to)
    }
}

extension FetchResultChange: JSONWritable {
    /// Writes what the `Encodable` conformance writes (absent fields omitted), without `JSONEncoder`'s cost per id.
    public func write(to json: inout JSONWriter) {
        write(to: &json, ids: ids.map { ids in { $0.array(ids) { $0.string($1) } } })
    }

    /// Writes the change with `ids` as its full ids (in place of `self.ids`), for a sender that holds them in
    /// another form than `[String]`; `idsKey` is `packedIds` when they are written in that form (``PackedIDs``).
    public func write(to json: inout JSONWriter, idsKey: StaticString = "ids", ids writeIDs: ((inout JSONWriter) -> Void)?) {
        json.beginObject()
        json.key("name"); json.string(name)
        json.key("count"); json.int(count)
        if let hasIncrementalChanges { json.key("hasIncrementalChanges"); json.bool(hasIncrementalChanges) }
        func indexes(_ key: StaticString, _ values: [Int]?) {
            if let values { json.key(key); json.array(values) { $0.int($1) } }
        }
        func identifiers(_ key: StaticString, _ values: [String]?) {
            if let values { json.key(key); json.array(values) { $0.string($1) } }
        }
        indexes("removedIndexes", removedIndexes)
        indexes("insertedIndexes", insertedIndexes)
        identifiers("insertedIds", insertedIds)
        indexes("changedIndexes", changedIndexes)
        identifiers("changedIds", changedIds)
        indexes("changedIndexesBefore", changedIndexesBefore)
        if let moves { json.key("moves"); json.array(moves) { $1.write(to: &$0) } }
        if let writeIDs { json.key(idsKey); writeIDs(&json) }
        json.endObject()
    }
}
