import CompactJSON
import Foundation
import GRDB
import PhotoModel

/// What one commit tells a tracker, read on the writer's queue right after the commit.
enum TrackerInput: Sendable {
    /// The transaction touched none of the objects the result depends on.
    case untouched
    /// For an asset result patched in place: the touched asset ids, which of them are now members (with their
    /// sort keys), and which changed properties.
    case members(touched: Set<String>, entries: [SortedEntry], changed: Set<String>)
    /// The result read anew, with the objects whose properties changed.
    case reload(TrackedResult, changed: Set<String>)
    /// The result could not be read; the tracker keeps its old result and reports the change as unavailable.
    case failed

    static func read(for query: ObservedQuery, change: CommittedChange, db: Database, now: Date) -> TrackerInput {
        let changedAssets = Set(change.objects.filter { $0.kind == .asset && $0.change == .changed }.map(\.id))
        let touchedAssets = Set(change.objects.filter { $0.kind == .asset }.map(\.id))
        do {
            switch query {
            case .assets(let assetQuery):
                let selection = try AssetSelection.compiling(assetQuery, now: now, in: db)
                // Read anew: an album whose members or order changed, or a collection that changed while none of
                // its assets did (Recently Added, whose membership moves with the date). Smart albums and moments
                // whose counts move with their assets are patched from those assets below.
                let collectionTouched = change.objects.contains {
                    $0.kind == .collection && $0.id == assetQuery.collection
                }
                if selection.isInAlbumOrder || (collectionTouched && touchedAssets.isEmpty) {
                    guard collectionTouched || !touchedAssets.isEmpty else { return .untouched }
                    return .reload(try TrackedResult.load(query, db: db, now: now).result, changed: changedAssets)
                }
                guard !touchedAssets.isEmpty else { return .untouched }
                guard touchedAssets.count <= ObservedResults.incrementalLimit else {
                    return .reload(try TrackedResult.load(query, db: db, now: now).result, changed: changedAssets)
                }
                let ids = Array(touchedAssets)
                var entries: [SortedEntry] = []
                try TrackedResult.forEachEntry(
                    db, sql: selection.keyedMembersSQL(restrictedToIdCount: ids.count),
                    arguments: selection.arguments + StatementArguments(ids)
                ) { entries.append($0) }
                return .members(touched: touchedAssets, entries: entries, changed: changedAssets)
            case .collections:
                guard !change.objects.isEmpty else { return .untouched }
                let changedCollections = change.objects.filter { $0.kind == .collection && $0.change == .changed }.map(
                    \.id)
                return .reload(try TrackedResult.load(query, db: db, now: now).result, changed: Set(changedCollections))
            }
        } catch {
            return .failed
        }
    }
}

/// A tracked result: a sorted asset list patched in place, or a list read anew when touched.
enum TrackedResult: Sendable {
    /// Members with UUID ids and at most one number key, packed.
    case packed(SortedResult<PackedEntry>, limit: Int?)
    /// Any other sorted members.
    case sorted(SortedResult<SortedEntry>, limit: Int?)
    case assetList([String])
    case collectionList([AssetCollection])

    var ids: [String] {
        switch self {
        case .packed(let result, let limit): limit.map { result.ids(prefix: $0) } ?? result.ids
        case .sorted(let result, let limit): limit.map { result.ids(prefix: $0) } ?? result.ids
        case .assetList(let ids): ids
        case .collectionList(let collections): collections.map(\.id)
        }
    }

    var count: Int {
        switch self {
        case .packed(let result, let limit): min(result.count, limit ?? .max)
        case .sorted(let result, let limit): min(result.count, limit ?? .max)
        case .assetList(let ids): ids.count
        case .collectionList(let collections): collections.count
        }
    }

    /// Writes `ids` as a JSON array, without a `String` per sorted member. The loops are written here, not through
    /// `JSONWriter.array`, so that they are specialized: through that generic one a million members took 0.9 s more.
    func writeIDs(to json: inout JSONWriter) {
        json.beginArray()
        switch self {
        case .packed(let result, _): for entry in result.entries.prefix(count) { entry.id.write(to: &json) }
        case .sorted(let result, _): for entry in result.entries.prefix(count) { entry.id.write(to: &json) }
        case .assetList, .collectionList: for id in ids { json.string(id) }
        }
        json.endArray()
    }

    /// Whether every id is a UUID, so that the ids can be written packed (`PackedIDs`).
    var hasOnlyUUIDs: Bool {
        switch self {
        // A packed entry's id is a UUID.
        case .packed: true
        case .sorted(let result, _):
            result.entries.prefix(count).allSatisfy { if case .uuid = $0.id { true } else { false } }
        case .assetList, .collectionList: false
        }
    }

    /// Appends `ids` in their packed form to `output`; every id must be a UUID (`hasOnlyUUIDs`).
    func appendPackedIDs(to output: inout [UInt8]) {
        var encoder = PackedIDEncoder()
        switch self {
        case .packed(let result, _):
            result.forEachChunk(prefix: count) { entries in
                for entry in entries { encoder.add(high: entry.high, low: entry.low, to: &output) }
            }
        case .sorted(let result, _):
            for entry in result.entries.prefix(count) {
                guard case .uuid(let high, let low) = entry.id else {
                    preconditionFailure("an id that is not a UUID, packed")
                }
                encoder.add(high: high, low: low, to: &output)
            }
        case .assetList, .collectionList:
            preconditionFailure("a list of ids, packed")
        }
        encoder.finish(to: &output)
    }

    /// Calls `body` with the entry of each row of `sql`, a `keyedMembersSQL`: the id, then the key's values. Read
    /// straight from SQLite's columns, without a `Row` or `Data` per member.
    static func forEachEntry(
        _ db: Database, sql: String, arguments: StatementArguments,
        _ body: (SortedEntry) -> Void
    ) throws {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let rows = try Row.fetchCursor(statement)
        let handle = statement.sqliteStatement, columns = Int32(statement.columnCount)
        while try rows.next() != nil {
            let key: SortKey =
                columns == 2
                ? .single(SortValue(column: 1, of: handle))
                : .multiple((1..<columns).map { SortValue(column: $0, of: handle) })
            body(SortedEntry(key: key, id: MemberID(column: 0, of: handle)))
        }
    }

    /// Reads the whole result; returns it with the generation it was read at.
    static func load(_ query: ObservedQuery, db: Database, now: Date) throws -> (
        result: TrackedResult, generation: Int64
    ) {
        let generation = try Int64.fetchOne(db, sql: "SELECT generation FROM library_info")!
        switch query {
        case .assets(let assetQuery):
            let selection = try AssetSelection.compiling(assetQuery, now: now, in: db)
            if selection.isInAlbumOrder {
                return (
                    .assetList(try String.fetchAll(db, sql: selection.idsSQL, arguments: selection.arguments)),
                    generation
                )
            }
            var unlimited = selection
            unlimited.limit = nil
            let ascending = selection.keyTerms.map(\.ascending)
            // Members are packed until one cannot be.
            var packed: [PackedEntry] = [], general: [SortedEntry]? = ascending.count > 1 ? [] : nil
            try forEachEntry(db, sql: unlimited.keyedMembersSQL(), arguments: unlimited.arguments) { entry in
                if general == nil, let member = PackedEntry(entry) {
                    packed.append(member)
                } else {
                    general = general ?? packed.map { SortedEntry($0, termCount: ascending.count) }
                    packed = []
                    general!.append(entry)
                }
            }
            guard let general else {
                return (.packed(SortedResult(sorted: packed, ascending: ascending), limit: selection.limit), generation)
            }
            return (.sorted(SortedResult(sorted: general, ascending: ascending), limit: selection.limit), generation)
        case .collections(let collectionQuery):
            return (
                .collectionList(try CollectionFetch.collections(matching: collectionQuery, now: now, db)), generation
            )
        }
    }

    /// Applies one commit's input, returning what it did to the result.
    mutating func apply(_ input: TrackerInput) -> ObservedResultChange {
        switch input {
        case .untouched:
            return .unchanged
        case .failed:
            return .unavailable
        case .reload(let fresh, let changed):
            let oldIds = ids
            var changedIds = changed
            if case .collectionList(let old) = self, case .collectionList(let new) = fresh {
                let before = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                changedIds.formUnion(
                    new.filter { collection in before[collection.id].map { $0 != collection } ?? false }.map(\.id))
            }
            self = fresh
            return Self.report(FetchResultChange.difference(name: "", from: oldIds, to: ids, changed: changedIds))
        case .members(let touched, let entries, let changed):
            let touched = touched.map(MemberID.init), changed = Set(changed.map(MemberID.init))
            if case .packed(var result, let limit) = self {
                let packedEntries = entries.compactMap(PackedEntry.init)
                if packedEntries.count == entries.count {
                    self = .assetList([])  // so that `result` is the only reference and is patched in place
                    defer { self = .packed(result, limit: limit) }
                    return Self.patch(&result, limit: limit, touched: touched, entries: packedEntries, changed: changed)
                }
                // A member the packed form cannot hold: the result goes on in the general form.
                let termCount = result.ascending.count
                self = .sorted(
                    SortedResult(
                        sorted: result.entries.map { SortedEntry($0, termCount: termCount) },
                        ascending: result.ascending), limit: limit)
            }
            guard case .sorted(var result, let limit) = self else { return .unavailable }
            self = .assetList([])
            defer { self = .sorted(result, limit: limit) }
            return Self.patch(&result, limit: limit, touched: touched, entries: entries, changed: changed)
        }
    }

    private static func report(_ change: FetchResultChange) -> ObservedResultChange {
        change.isEmpty ? .unchanged : .changed(change)
    }

    /// Patches a sorted result with the touched assets' new membership and keys, returning the exact change of
    /// the result (of its first `limit` members, when it has a limit).
    ///
    /// Members whose sort key changed are reported as moves; all others keep their relative order.
    private static func patch<Entry>(
        _ result: inout SortedResult<Entry>, limit: Int?, touched: [MemberID], entries: [Entry],
        changed: Set<MemberID>
    ) -> ObservedResultChange {
        let oldPrefix = limit.map { result.ids(prefix: $0) }
        let newEntries = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var removed: [Int] = []
        var movedFrom: [MemberID: Int] = [:]
        var keptBefore: [MemberID: Int] = [:]
        var leaving: [Entry] = []
        for id in touched {
            guard let oldEntry = result.entry(for: id), let rank = result.rank(of: oldEntry) else { continue }
            if let newEntry = newEntries[id] {
                guard newEntry != oldEntry else {
                    if changed.contains(id) { keptBefore[id] = rank }
                    continue
                }
                movedFrom[id] = rank
            } else {
                removed.append(rank)
            }
            leaving.append(oldEntry)
        }
        for entry in leaving { _ = result.remove(entry) }
        let placed = entries.filter { result.entry(for: $0.id) == nil }
        for entry in placed { result.insert(entry) }
        if let oldPrefix, let limit {
            return report(
                FetchResultChange.difference(
                    name: "", from: oldPrefix, to: result.ids(prefix: limit),
                    changed: Set(changed.map(\.string))))
        }
        var inserted: [(index: Int, id: MemberID)] = []
        var moves: [FetchResultMove] = []
        var changedPairs: [(after: Int, before: Int, id: MemberID)] = []
        for entry in placed {
            let rank = result.rank(of: entry)!
            if let from = movedFrom[entry.id] {
                moves.append(FetchResultMove(from: from, to: rank))
                if changed.contains(entry.id) { changedPairs.append((rank, from, entry.id)) }
            } else {
                inserted.append((rank, entry.id))
            }
        }
        for (id, before) in keptBefore {
            changedPairs.append((result.rank(of: newEntries[id]!)!, before, id))
        }
        inserted.sort { $0.index < $1.index }
        changedPairs.sort { $0.after < $1.after }
        return report(
            FetchResultChange(
                name: "", count: result.count, hasIncrementalChanges: true, removedIndexes: removed.sorted(),
                insertedIndexes: inserted.map(\.index), insertedIds: inserted.map(\.id.string),
                changedIndexes: changedPairs.map(\.after), changedIds: changedPairs.map(\.id.string),
                changedIndexesBefore: changedPairs.map(\.before), moves: moves.sorted { $0.to < $1.to }))
    }
}
