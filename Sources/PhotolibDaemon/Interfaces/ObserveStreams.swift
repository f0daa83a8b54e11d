import DaemonCore
import Foundation
import LibraryStore
import PhotoModel
import PhotolibProtocol
import Synchronization
import Varlink

/// The queries of one running `Observe` stream, which `UpdateObservation` calls may add to and drop from.
///
/// Each query carries the generation its result was first sent at: the stream reports it only in the
/// replies of later transactions, so a client that applies every reply to that first result stays exact.
final class ObserveStream: Sendable {
    /// A query the stream follows under a client-chosen name.
    struct NamedQuery: Sendable {
        var name: String
        var query: ObservedQuery
        /// The generation at which the client received the full result.
        var since: Int64
    }

    /// The most queries one stream may follow.
    static let queryLimit = 10_000

    /// Unguessable, so that only the client that opened the stream can change it.
    let id = UUID().uuidString.lowercased()
    /// The user who opened the stream; only that user may change it.
    let owner: uid_t?
    private let queries: Mutex<[NamedQuery]>

    init(owner: uid_t?) {
        self.owner = owner
        queries = Mutex([])
    }

    /// The followed queries, sorted by name.
    var current: [NamedQuery] {
        queries.withLock { $0 }
    }

    /// Whether a query of this name is still followed.
    func follows(_ name: String) -> Bool {
        queries.withLock { $0.contains { $0.name == name } }
    }

    /// Adds queries whose results were sent at `since`.
    func add(_ named: [(name: String, query: ObservedQuery)], since: Int64) {
        queries.withLock { queries in
            queries += named.map { NamedQuery(name: $0.name, query: $0.query, since: since) }
            queries.sort { $0.name < $1.name }
        }
    }

    /// Drops the named queries; returns those that were followed, for the caller to release.
    func remove(_ names: Set<String>) -> [ObservedQuery] {
        queries.withLock { queries in
            let removed = queries.filter { names.contains($0.name) }.map(\.query)
            queries.removeAll { names.contains($0.name) }
            return removed
        }
    }

    /// Drops every query; returns them for the caller to release.
    func removeAll() -> [ObservedQuery] {
        queries.withLock { queries in
            defer { queries = [] }
            return queries.map(\.query)
        }
    }

    /// Checks that `assetQueries` and `collectionQueries` may be added: names unique, new and within the limit.
    func checkNewNames(assetQueries: [String: AssetQuery], collectionQueries: [String: CollectionQuery]) throws {
        if let shared = assetQueries.keys.first(where: { collectionQueries[$0] != nil }) {
            throw VarlinkError.invalidParameter("collectionQueries.\(shared)")
        }
        let existing = Set(current.map(\.name))
        if let taken = assetQueries.keys.first(where: existing.contains) {
            throw VarlinkError.invalidParameter("assetQueries.\(taken)")
        }
        if let taken = collectionQueries.keys.first(where: existing.contains) {
            throw VarlinkError.invalidParameter("collectionQueries.\(taken)")
        }
        if existing.count + assetQueries.count + collectionQueries.count > Self.queryLimit {
            throw VarlinkError.invalidParameter("assetQueries")
        }
    }
}

/// The running `Observe` streams by id, for `UpdateObservation`, and their end when the daemon stops.
final class ObserveStreams: Sendable {
    private struct Ending {
        var hasEnded = false
        var streams: [UUID: AsyncStream<Never>.Continuation] = [:]
    }

    private let running = Mutex<[String: ObserveStream]>([:])
    private let ending = Mutex(Ending())

    static let serviceStopping = VarlinkError(PhotolibErrorName.serviceStopping.qualified(in: .library))

    /// Ends every stream, now and later, with `ServiceStopping`: the daemon is stopping.
    func endAll() {
        let streams = ending.withLock { ending in
            ending.hasEnded = true
            defer { ending.streams = [:] }
            return ending.streams.values
        }
        for stream in streams { stream.finish() }
    }

    /// Runs `stream` until it ends by itself, or throws `ServiceStopping` once `endAll` is called.
    func endingWhenStopping(_ stream: @escaping @Sendable () async throws -> Void) async throws {
        let (ended, sink) = AsyncStream.makeStream(of: Never.self)
        let id = UUID()
        let hasEnded = ending.withLock { ending in
            if !ending.hasEnded { ending.streams[id] = sink }
            return ending.hasEnded
        }
        defer { _ = ending.withLock { $0.streams.removeValue(forKey: id) } }
        guard !hasEnded else { throw Self.serviceStopping }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask(operation: stream)
            group.addTask {
                for await _ in ended {}
                throw Self.serviceStopping
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Registers a stream's observation for as long as `body` runs.
    func registering<Result>(_ observation: ObserveStream, during body: () async throws -> Result) async rethrows
        -> Result
    {
        running.withLock { $0[observation.id] = observation }
        defer { _ = running.withLock { $0.removeValue(forKey: observation.id) } }
        return try await body()
    }

    /// The running observation `id` if `caller` opened it.
    func observation(_ id: String, caller: uid_t?) -> ObserveStream? {
        guard let observation = running.withLock({ $0[id] }), observation.owner == caller else { return nil }
        return observation
    }
}
