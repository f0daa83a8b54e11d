import CMalloc
import LibraryStore
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
    let observation: Observation
    let replies: VarlinkReplyWriter

    func run() async throws {
        let named = try namedQueries()
        let wakeUps = database.feed.subscribe()
        try await database.track(named.map(\.query))
        defer { database.observedResults.release(observation.removeAll()) }

        let snapshot = Self.fullResults(of: named, in: database, incremental: nil)
        observation.add(named, since: snapshot.generation)
        var lastToken = token(snapshot.generation)
        try await replies.send(LibraryChangeEvent(token: lastToken.description, previousToken: nil, results: snapshot.results,
                                                  observerId: observation.id), continues: true)
        Self.returnFreedMemory(afterSending: snapshot.results)

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
                try await replies.send(LibraryChangeEvent(token: changeToken.description, previousToken: lastToken.description,
                                                          objects: change.objects, results: results), continues: true)
                lastToken = changeToken
            }
        }
    }

    /// Sends every result's full ids at the newest state, for a reader that fell behind.
    private func sendReload(since lastToken: inout ChangeToken, delivered: inout Int64) async throws {
        let snapshot = Self.fullResults(of: observation.current.map { ($0.name, $0.query) }, in: database, incremental: false)
        guard snapshot.generation > delivered else { return }
        let reloadToken = token(snapshot.generation)
        try await replies.send(LibraryChangeEvent(token: reloadToken.description, previousToken: lastToken.description,
                                                  results: snapshot.results), continues: true)
        Self.returnFreedMemory(afterSending: snapshot.results)
        lastToken = reloadToken
        delivered = snapshot.generation
    }

    /// Gives the memory of a large reply's text back to the system once it is sent; without this the
    /// allocator keeps the daemon's resident size at its peak (hundreds of MB after a million-id snapshot).
    static func returnFreedMemory(afterSending results: [FetchResultChange]) {
        guard results.reduce(0, { $0 + ($1.ids?.count ?? 0) }) >= 100_000 else { return }
        malloc_trim(0)
    }

    /// The full results of `named` at the newest generation (`incremental` as `FetchResultChange.full` takes it).
    static func fullResults(of named: [(name: String, query: ObservedQuery)], in database: LibraryDatabase,
                            incremental: Bool?) -> (generation: Int64, results: [FetchResultChange]) {
        let snapshot = database.observedResults.snapshot(named.map(\.query))
        let results = named.map { FetchResultChange.full(name: $0.name, ids: snapshot.ids[$0.query] ?? [], incremental: incremental) }
        return (snapshot.generation, results)
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
        let named = assetQueries.map { ($0.key, ObservedQuery.assets($0.value)) }
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
    let observation: Observation

    func run(replies: VarlinkReplyWriter) async throws {
        let assetQueries = parameters.assetQueries ?? [:], collectionQueries = parameters.collectionQueries ?? [:]
        let removing = Set(parameters.removeQueries ?? [])
        database.observedResults.release(observation.remove(removing))
        try observation.checkNewNames(assetQueries: assetQueries, collectionQueries: collectionQueries)
        let named = LibraryObserver.named(assetQueries: assetQueries, collectionQueries: collectionQueries)
        try await database.track(named.map(\.query))
        let snapshot = LibraryObserver.fullResults(of: named, in: database, incremental: nil)
        observation.add(named, since: snapshot.generation)
        try await replies.send(ObservationUpdate(
            token: ChangeToken(libraryId: database.libraryId, generation: snapshot.generation).description,
            results: snapshot.results
        ))
        LibraryObserver.returnFreedMemory(afterSending: snapshot.results)
    }
}
