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
                let collectionTouched = change.objects.contains { $0.kind == .collection && $0.id == assetQuery.collection }
                if selection.isInAlbumOrder || (collectionTouched && touchedAssets.isEmpty) {
                    guard collectionTouched || !touchedAssets.isEmpty else { return .untouched }
                    return .reload(try TrackedResult.load(query, db: db, now: now).result, changed: changedAssets)
                }
                guard !touchedAssets.isEmpty else { return .untouched }
                guard touchedAssets.count <= ObservedResults.incrementalLimit else {
                    return .reload(try TrackedResult.load(query, db: db, now: now).result, changed: changedAssets)
                }
                let ids = Array(touchedAssets)
                let entries = try Row.fetchAll(
                    db, sql: selection.keyedMembersSQL(restrictedToIdCount: ids.count),
                    arguments: selection.arguments + StatementArguments(ids)
                ).map(TrackedResult.entry(from:))
                return .members(touched: touchedAssets, entries: entries, changed: changedAssets)
            case .collections:
                guard !change.objects.isEmpty else { return .untouched }
                let changedCollections = change.objects.filter { $0.kind == .collection && $0.change == .changed }.map(\.id)
                return .reload(try TrackedResult.load(query, db: db, now: now).result, changed: Set(changedCollections))
            }
        } catch {
            return .failed
        }
    }
}

/// A tracked result: a sorted asset list patched in place, or a list read anew when touched.
enum TrackedResult: Sendable {
    case sorted(SortedResult, keys: [MemberID: SortKey], limit: Int?)
    case assetList([String])
    case collectionList([AssetCollection])

    var ids: [String] {
        switch self {
        case .sorted(let result, _, let limit): limit.map { result.ids(prefix: $0) } ?? result.ids
        case .assetList(let ids): ids
        case .collectionList(let collections): collections.map(\.id)
        }
    }

    /// The entry of a row of `keyedMembersSQL`: the id (read in place), then the key's values.
    static func entry(from row: Row) -> SortedEntry {
        let id = (try? row.withUnsafeData(atIndex: 0) { text in
            text?.withUnsafeBytes { MemberID(utf8: $0) }
        }) ?? MemberID(row[0] as String)
        let key: SortKey = row.count == 2 ? .single(SortValue(row[1] as DatabaseValue))
            : .multiple((1..<row.count).map { SortValue(row[$0] as DatabaseValue) })
        return SortedEntry(key: key, id: id)
    }

    /// Reads the whole result; returns it with the generation it was read at.
    static func load(_ query: ObservedQuery, db: Database, now: Date) throws -> (result: TrackedResult, generation: Int64) {
        let generation = try Int64.fetchOne(db, sql: "SELECT generation FROM library_info")!
        switch query {
        case .assets(let assetQuery):
            let selection = try AssetSelection.compiling(assetQuery, now: now, in: db)
            if selection.isInAlbumOrder {
                return (.assetList(try String.fetchAll(db, sql: selection.idsSQL, arguments: selection.arguments)), generation)
            }
            var unlimited = selection
            unlimited.limit = nil
            // A cursor, not fetchAll: a million rows are read without a million Row objects at once.
            let rows = try Row.fetchCursor(db, sql: unlimited.keyedMembersSQL(), arguments: unlimited.arguments)
            var entries: [SortedEntry] = []
            while let row = try rows.next() {
                entries.append(entry(from: row))
            }
            var keys = [MemberID: SortKey](minimumCapacity: entries.count)
            for member in entries {
                keys[member.id] = member.key
            }
            let sorted = SortedResult(sorted: entries, ascending: selection.keyTerms.map(\.ascending))
            return (.sorted(sorted, keys: keys, limit: selection.limit), generation)
        case .collections(let collectionQuery):
            return (.collectionList(try LibraryDatabase.collections(matching: collectionQuery, now: now, db)), generation)
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
                changedIds.formUnion(new.filter { collection in before[collection.id].map { $0 != collection } ?? false }.map(\.id))
            }
            self = fresh
            return Self.report(FetchResultChange.difference(name: "", from: oldIds, to: ids, changed: changedIds))
        case .members(let touched, let entries, let changed):
            guard case .sorted(var result, var keys, let limit) = self else { return .unavailable }
            let oldPrefix = limit.map { result.ids(prefix: $0) }
            let change = Self.patch(&result, keys: &keys, touched: touched, entries: entries, changed: changed)
            self = .sorted(result, keys: keys, limit: limit)
            if let oldPrefix, let limit {
                return Self.report(FetchResultChange.difference(name: "", from: oldPrefix, to: result.ids(prefix: limit),
                                                                changed: changed))
            }
            return Self.report(change)
        }
    }

    private static func report(_ change: FetchResultChange) -> ObservedResultChange {
        change.isEmpty ? .unchanged : .changed(change)
    }

    /// Patches a sorted result with the touched assets' new membership and keys, returning the exact change.
    ///
    /// Members whose sort key changed are reported as moves; all others keep their relative order.
    private static func patch(_ result: inout SortedResult, keys: inout [MemberID: SortKey], touched: Set<String>,
                              entries: [SortedEntry], changed: Set<String>) -> FetchResultChange {
        let touched = touched.map(MemberID.init), changed = Set(changed.map(MemberID.init))
        let newEntries = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var removed: [Int] = []
        var movedFrom: [MemberID: Int] = [:]
        var keptBefore: [MemberID: Int] = [:]
        for id in touched {
            guard let oldKey = keys[id] else { continue }
            let oldEntry = SortedEntry(key: oldKey, id: id)
            guard let rank = result.rank(of: oldEntry) else { continue }
            if let newEntry = newEntries[id] {
                if newEntry.key != oldKey { movedFrom[id] = rank } else if changed.contains(id) { keptBefore[id] = rank }
            } else {
                removed.append(rank)
            }
        }
        for id in touched {
            guard let oldKey = keys[id], newEntries[id] == nil || movedFrom[id] != nil else { continue }
            _ = result.remove(SortedEntry(key: oldKey, id: id))
            keys[id] = nil
        }
        let placed = entries.filter { keys[$0.id] == nil }
        for entry in placed {
            result.insert(entry)
            keys[entry.id] = entry.key
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
        return FetchResultChange(
            name: "", count: result.count, hasIncrementalChanges: true, removedIndexes: removed.sorted(),
            insertedIndexes: inserted.map(\.index), insertedIds: inserted.map(\.id.string),
            changedIndexes: changedPairs.map(\.after), changedIds: changedPairs.map(\.id.string),
            changedIndexesBefore: changedPairs.map(\.before), moves: moves.sorted { $0.to < $1.to })
    }
}
