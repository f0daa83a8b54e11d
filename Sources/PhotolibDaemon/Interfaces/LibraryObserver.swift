import CMalloc
import CompactJSON
import DaemonCore
import LibraryStore
import NIOPosix
import PhotoModel
import PhotolibProtocol
import Varlink

/// One `Library.Observe` stream: the current results, then one reply per committed transaction.
///
/// Results are tracked by the store (each distinct query once) and patched at every commit; this observer
/// only reads the per-generation changes it has not delivered. It is woken by the change feed, which keeps
/// at most one wake-up per observer, so a reader that does not read holds no growing backlog: when it falls
/// more than `backlogLimit` transactions (or `backlogBytes` of replies) behind, or the changes it missed are
/// no longer remembered, its next reply is one non-incremental reply with every result's full ids.
struct LibraryObserver {
    static let backlogLimit = 256
    static let backlogBytes = 4 << 20

    let database: LibraryDatabase
    let parameters: ObserveParameters
    let canRead: Bool
    let observation: ObserveStream
    let replies: VarlinkReplyWriter

    func run() async throws {
        let named = try namedQueries()
        let wakeUps = database.feed.subscribe()
        try await database.track(named.map(\.query))
        defer { database.observedResults.release(observation.removeAll()) }

        let snapshot = FullResults(of: named, in: database, incremental: nil)
        observation.add(named, since: snapshot.generation)
        var lastToken = token(snapshot.generation)
        try await snapshot.send(
            as: .event(
                LibraryChangeEvent(
                    token: lastToken.description, previousToken: nil, results: [],
                    observerId: observation.id)), with: replies)

        var delivered = snapshot.generation
        for await _ in wakeUps {
            let newest = database.feed.generation
            guard newest > delivered else { continue }
            let pending = database.feed.changes(after: delivered)
            let estimatedBytes = pending?.reduce(0) { $0 + 100 * $1.objects.count } ?? 0
            guard let pending, pending.count <= Self.backlogLimit, estimatedBytes <= Self.backlogBytes else {
                try await sendReload(since: &lastToken, delivered: &delivered)
                continue
            }
            for change in pending where change.generation > delivered {
                var results: [FetchResultChange] = []
                var unavailable = false
                for named in observation.current where named.since < change.generation {
                    switch database.observedResults.change(of: named.query, at: change.generation) {
                    case .unchanged: break
                    case .changed(var result):
                        result.name = named.name
                        results.append(result)
                    case .unavailable:
                        // A query dropped meanwhile is no reason to reload the others.
                        if observation.follows(named.name) { unavailable = true }
                    }
                }
                if unavailable {
                    try await sendReload(since: &lastToken, delivered: &delivered)
                    break
                }
                delivered = change.generation
                if parameters.onlyRelevant == true, results.isEmpty { continue }
                let changeToken = token(change.generation)
                try await replies.send(
                    LibraryChangeEvent(
                        token: changeToken.description, previousToken: lastToken.description,
                        objects: change.objects, results: results), continues: true)
                lastToken = changeToken
            }
        }
    }

    /// Sends every result's full ids at the newest state, for a reader that fell behind.
    private func sendReload(since lastToken: inout ChangeToken, delivered: inout Int64) async throws {
        let snapshot = FullResults(
            of: observation.current.map { ($0.name, $0.query) }, in: database, incremental: false)
        guard snapshot.generation > delivered else { return }
        let reloadToken = token(snapshot.generation)
        try await snapshot.send(
            as: .event(
                LibraryChangeEvent(
                    token: reloadToken.description, previousToken: lastToken.description,
                    results: [])), with: replies)
        lastToken = reloadToken
        delivered = snapshot.generation
    }

    /// The observer's first queries by name, sorted; none for a caller that may not read.
    private func namedQueries() throws -> [(name: String, query: ObservedQuery)] {
        guard canRead else { return [] }
        let assetQueries = parameters.assetQueries ?? [:], collectionQueries = parameters.collectionQueries ?? [:]
        try observation.checkNewNames(assetQueries: assetQueries, collectionQueries: collectionQueries)
        return Self.named(assetQueries: assetQueries, collectionQueries: collectionQueries)
    }

    /// Asset and collection queries as one list sorted by name.
    static func named(assetQueries: [String: AssetQuery], collectionQueries: [String: CollectionQuery])
        -> [(name: String, query: ObservedQuery)]
    {
        let named =
            assetQueries.map { ($0.key, ObservedQuery.assets($0.value)) }
            + collectionQueries.map { ($0.key, ObservedQuery.collections($0.value)) }
        return named.sorted { $0.0 < $1.0 }
    }

    private func token(_ generation: Int64) -> ChangeToken {
        ChangeToken(libraryId: database.libraryId, generation: generation)
    }
}

/// `UpdateObservation`: adds queries to a running `Observe` stream and drops others.
///
/// The reply carries each added query's full result and the token it is at; the stream then reports the
/// added queries in the replies of transactions after that token.
struct ObservationUpdater {
    let database: LibraryDatabase
    let parameters: UpdateObservationParameters
    let observation: ObserveStream

    func run(replies: VarlinkReplyWriter) async throws {
        let assetQueries = parameters.assetQueries ?? [:], collectionQueries = parameters.collectionQueries ?? [:]
        let removing = Set(parameters.removeQueries ?? [])
        database.observedResults.release(observation.remove(removing))
        try observation.checkNewNames(assetQueries: assetQueries, collectionQueries: collectionQueries)
        let named = LibraryObserver.named(assetQueries: assetQueries, collectionQueries: collectionQueries)
        try await database.track(named.map(\.query))
        let snapshot = FullResults(of: named, in: database, incremental: nil)
        observation.add(named, since: snapshot.generation)
        let token = ChangeToken(libraryId: database.libraryId, generation: snapshot.generation).description
        try await snapshot.send(
            as: .update(ObservationUpdate(token: token, results: []), packedIds: parameters.packedIds == true),
            with: replies)
    }
}

/// Every result's full ids at one generation, sent straight from the tracked results' members: a million ids
/// become 39 MB of JSON without a `String` each on the way.
struct FullResults: Sendable {
    /// The reply the results go in (its own `results` left empty).
    enum Reply: Sendable {
        case event(LibraryChangeEvent)
        /// With `packedIds`, results of UUIDs send them packed.
        case update(ObservationUpdate, packedIds: Bool)
    }

    let generation: Int64
    private let results: [(name: String, members: ResultMembers)]
    /// As `FetchResultChange.full` takes it: nil in a snapshot, false in a reload.
    private let incremental: Bool?

    /// The results of `named` at the newest generation.
    init(of named: [(name: String, query: ObservedQuery)], in database: LibraryDatabase, incremental: Bool?) {
        let snapshot = database.observedResults.snapshot(named.map(\.query))
        generation = snapshot.generation
        results = named.map { ($0.name, snapshot.members[$0.query] ?? ResultMembers.empty) }
        self.incremental = incremental
    }

    /// Sends the results in `reply` (continued, unless it is an update), then gives the memory of a large reply's
    /// text back to the system (on the blocking pool, off the event loop): without that the allocator keeps the daemon's
    /// resident size at its peak.
    func send(as reply: Reply, with replies: VarlinkReplyWriter) async throws {
        let written = Written(reply: reply, results: self)
        switch reply {
        case .event: try await replies.send(json: written, continues: true)
        case .update: try await replies.send(json: written)
        }
        if results.reduce(0, { $0 + $1.members.count }) >= 100_000 {
            _ = try? await NIOThreadPool.singleton.runIfActive { malloc_trim(0) }
        }
    }

    private struct Written: JSONWritable, Sendable {
        let reply: Reply
        let results: FullResults

        var packsIDs: Bool { if case .update(_, packedIds: true) = reply { true } else { false } }

        /// A UUID id takes 39 bytes with its quotes and comma, or 21⅓ packed.
        var estimatedByteCount: Int {
            let idBytes = packsIDs ? 22 : 40
            return results.results.reduce(1 << 12) { $0 + idBytes * $1.members.count + 256 }
        }

        func write(to json: inout JSONWriter) {
            let writeResults = { (json: inout JSONWriter) in
                json.array(results.results) { json, result in
                    let change = FetchResultChange(
                        name: result.name, count: result.members.count,
                        hasIncrementalChanges: results.incremental)
                    if packsIDs, result.members.hasOnlyUUIDs {
                        change.write(to: &json, idsKey: "packedIds") { result.members.writePackedIDs(to: &$0) }
                    } else {
                        change.write(to: &json) { result.members.writeIDs(to: &$0) }
                    }
                }
            }
            switch reply {
            case .event(let event): event.write(to: &json, results: writeResults)
            case .update(let update, _): update.write(to: &json, results: writeResults)
            }
        }
    }
}
