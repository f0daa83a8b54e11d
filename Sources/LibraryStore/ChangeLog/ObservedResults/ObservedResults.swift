import CompactJSON
import DequeModule
import Foundation
import GRDB
import PhotoModel
import Synchronization

/// A query whose result observers follow.
public enum ObservedQuery: Sendable, Hashable {
    case assets(AssetQuery)
    case collections(CollectionQuery)
}

/// What a tracked result did in one committed transaction.
public enum ObservedResultChange: Sendable {
    /// The transaction left the result as it was.
    case unchanged
    /// The exact change (its `name` is left empty for the observer to fill).
    case changed(FetchResultChange)
    /// The change is no longer (or not yet) known: the observer should reload.
    case unavailable
}

/// A result's ordered members as a snapshot found them: a copy that costs nothing until the result changes, read
/// without holding up the commits that change it.
public struct ResultMembers: Sendable {
    fileprivate let result: TrackedResult?

    /// The members of a result not followed (any more).
    public static let empty = ResultMembers(result: nil)

    public var count: Int { result?.count ?? 0 }

    /// The ordered ids.
    public var ids: [String] { result?.ids ?? [] }

    /// Writes the ordered ids as a JSON array, without making a `String` of each (a million ids make 39 MB of
    /// JSON, where their `String`s would take 80 MB more).
    public func writeIDs(to json: inout JSONWriter) {
        guard let result else {
            json.beginArray()
            return json.endArray()
        }
        result.writeIDs(to: &json)
    }

    /// Whether every id is a UUID, so that the ids can be written packed (`PackedIDs`).
    public var hasOnlyUUIDs: Bool { result?.hasOnlyUUIDs ?? true }

    /// Writes the ordered ids in their packed form (`PackedIDs`) as a JSON string; every id must be a UUID
    /// (`hasOnlyUUIDs`).
    public func writePackedIDs(to json: inout JSONWriter) {
        json.unescapedString { output in result?.appendPackedIDs(to: &output) }
    }
}

/// The results observers follow, kept up to date as transactions commit.
///
/// Each distinct query is tracked once however many observers follow it. Trackers advance on the writer's
/// queue right after each commit, from the objects the transaction touched (one indexed lookup of those
/// objects, not a re-run of the query), so every recorded change is exact at its own generation; observers
/// then read the changes they have not delivered yet. A bounded history per tracker keeps memory fixed.
public final class ObservedResults: Sendable {
    /// How many recent changes each tracker remembers.
    static let historyLength = 1_024
    /// Above this many touched assets a transaction reloads an asset result instead of patching it.
    static let incrementalLimit = 2_000

    private struct Tracker {
        var query: ObservedQuery
        var observers = 1
        /// Nil while the first load runs; inputs that commit meanwhile wait in `pending`.
        var result: TrackedResult?
        var pending: [(generation: Int64, input: TrackerInput)] = []
        var history: Deque<(generation: Int64, change: ObservedResultChange)> = []
        var waiters: [CheckedContinuation<Void, any Error>] = []
        /// Why the first load failed (an invalid predicate); kept until every caller of `track` has released it.
        var failure: (any Error)?
    }

    private struct State {
        var generation: Int64
        var trackers: [ObservedQuery: Tracker] = [:]
    }

    private let state: Mutex<State>

    init(generation: Int64) {
        state = Mutex(State(generation: generation))
    }

    /// Starts (or joins) tracking `queries`; returns once every result is loaded. When one cannot be loaded (an
    /// invalid predicate), throws why and follows none of them.
    func track(_ queries: [ObservedQuery], in writer: DatabasePool) async throws {
        try await writer.writeWithoutTransaction { db in
            let generation = try Int64.fetchOne(db, sql: "SELECT generation FROM library_info")!
            let newQueries = self.state.withLock { state in
                state.generation = generation
                var created: [ObservedQuery] = []
                for query in Set(queries) {
                    if state.trackers[query] != nil {
                        state.trackers[query]!.observers += 1
                    } else {
                        state.trackers[query] = Tracker(query: query)
                        created.append(query)
                    }
                }
                return created
            }
            for query in newQueries {
                writer.spawnConcurrentRead { [self] result in
                    let loaded = Result { try TrackedResult.load(query, db: try result.get(), now: Date()) }
                    finishLoading(query, with: loaded)
                }
            }
        }
        do {
            for query in Set(queries) {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let loaded: Result<Void, any Error>? = state.withLock { state in
                        guard let tracker = state.trackers[query] else { return .success(()) }
                        if let failure = tracker.failure { return .failure(failure) }
                        guard tracker.result == nil else { return .success(()) }
                        state.trackers[query]!.waiters.append(continuation)
                        return nil
                    }
                    if let loaded { continuation.resume(with: loaded) }
                }
            }
        } catch {
            release(queries)
            throw error
        }
    }

    /// Stops following `queries` (once per `track`); unfollowed results are dropped.
    public func release(_ queries: [ObservedQuery]) {
        state.withLock { state in
            for query in Set(queries) {
                state.trackers[query]?.observers -= 1
                if state.trackers[query]?.observers ?? 0 <= 0 { state.trackers[query] = nil }
            }
        }
    }

    /// The current members of each query and the generation they are at, read together.
    public func snapshot(_ queries: [ObservedQuery]) -> (generation: Int64, members: [ObservedQuery: ResultMembers]) {
        state.withLock { state in
            var members: [ObservedQuery: ResultMembers] = [:]
            for query in queries { members[query] = ResultMembers(result: state.trackers[query]?.result) }
            return (state.generation, members)
        }
    }

    /// What the transaction of `generation` did to `query`'s result.
    public func change(of query: ObservedQuery, at generation: Int64) -> ObservedResultChange {
        state.withLock { state in
            guard let tracker = state.trackers[query], tracker.result != nil,
                  let first = tracker.history.first, first.generation <= generation,
                  let entry = tracker.history.last(where: { $0.generation == generation })
            else { return .unavailable }
            return entry.change
        }
    }

    /// Advances every tracker past a just-committed transaction; runs on the writer's queue after the commit.
    func advance(past change: CommittedChange, db: Database) {
        let queries = state.withLock { state in state.trackers.filter { $0.value.failure == nil }.map(\.key) }
        let now = Date()
        var inputs: [ObservedQuery: TrackerInput] = [:]
        for query in queries {
            inputs[query] = TrackerInput.read(for: query, change: change, db: db, now: now)
        }
        // The generation moves with the results, so that a snapshot never pairs new generation and old ids.
        state.withLock { state in
            state.generation = change.generation
            for (query, input) in inputs where state.trackers[query] != nil && state.trackers[query]!.failure == nil {
                if state.trackers[query]!.result == nil {
                    state.trackers[query]!.pending.append((change.generation, input))
                } else {
                    apply(input, generation: change.generation, to: &state.trackers[query]!)
                }
            }
        }
    }

    private func finishLoading(_ query: ObservedQuery, with loaded: Result<(result: TrackedResult, generation: Int64), any Error>) {
        let waiters: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            guard var tracker = state.trackers[query] else { return [] }
            let waiters = tracker.waiters
            tracker.waiters = []
            switch loaded {
            case .success(let (result, generation)):
                tracker.result = result
                for (pendingGeneration, input) in tracker.pending where pendingGeneration > generation {
                    apply(input, generation: pendingGeneration, to: &tracker)
                }
                tracker.pending = []
                state.trackers[query] = tracker
            case .failure(let error):
                tracker.failure = error
                tracker.pending = []
                state.trackers[query] = tracker
            }
            return waiters
        }
        for waiter in waiters {
            switch loaded {
            case .success: waiter.resume()
            case .failure(let error): waiter.resume(throwing: error)
            }
        }
    }

    private func apply(_ input: TrackerInput, generation: Int64, to tracker: inout Tracker) {
        let change = tracker.result!.apply(input)
        tracker.history.append((generation, change))
        if tracker.history.count > Self.historyLength { tracker.history.removeFirst() }
    }
}
