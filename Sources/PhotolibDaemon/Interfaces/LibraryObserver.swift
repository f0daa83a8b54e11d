import LibraryStore
import PhotoModel
import Varlink

/// One `Library.Observe` stream: the current results, then one reply per committed transaction.
///
/// The observer is woken by the change feed and reads what it missed from the feed's ring or the change log,
/// so a slow reader holds no growing backlog. Results are re-read at the newest state; when further commits
/// already followed a transaction, its reply carries only its objects and the results come with the later one.
struct LibraryObserver {
    let database: LibraryDatabase
    let parameters: ObserveParameters
    let canRead: Bool
    let replies: VarlinkReplyWriter

    func run() async throws {
        let assetQueries = canRead ? parameters.assetQueries ?? [:] : [:]
        let collectionQueries = canRead ? parameters.collectionQueries ?? [:] : [:]
        if let shared = assetQueries.keys.first(where: { collectionQueries[$0] != nil }) {
            throw VarlinkError.invalidParameter("collectionQueries.\(shared)")
        }
        let names = (Array(assetQueries.keys) + Array(collectionQueries.keys)).sorted()
        let wakeUps = database.feed.subscribe()
        var held = try await database.fetchResultIds(assetQueries: assetQueries, collectionQueries: collectionQueries)
        if !canRead { held.ids = Dictionary(uniqueKeysWithValues: names.map { ($0, []) }) }
        try await replies.send(ObserveReply(
            token: held.token.description, previousToken: nil, objects: nil,
            results: names.map { ResultChange(name: $0, ids: held.ids[$0] ?? []) }
        ), continues: true)

        var lastToken = held.token
        var delivered = held.token.generation
        for await _ in wakeUps {
            var pending = database.feed.changes(after: delivered) ?? []
            if pending.isEmpty, database.feed.generation > delivered {
                pending = try await database.committedChanges(after: delivered, limit: 10_000)
            }
            for (position, change) in pending.enumerated() {
                delivered = change.generation
                var results: [ResultChange] = []
                if position == pending.count - 1 {
                    let fresh = try await database.fetchResultIds(assetQueries: assetQueries, collectionQueries: collectionQueries)
                    if fresh.token.generation == change.generation {
                        results = names.compactMap { name in
                            let ids = fresh.ids[name] ?? []
                            let touched = change.objects.contains { object in ids.contains(object.id) }
                            guard ids != held.ids[name] || touched else { return nil }
                            return ResultChange(name: name, ids: ids, hasIncrementalChanges: false)
                        }
                        held = fresh
                    }
                }
                if parameters.onlyRelevant == true, results.isEmpty { continue }
                let token = ChangeToken(libraryId: database.libraryId, generation: change.generation)
                try await replies.send(ObserveReply(token: token.description, previousToken: lastToken.description,
                                                    objects: change.objects, results: results), continues: true)
                lastToken = token
            }
        }
    }
}

struct ObserveParameters: Decodable {
    var assetQueries: [String: AssetQuery]?
    var collectionQueries: [String: CollectionQuery]?
    var onlyRelevant: Bool?
}

struct ObserveReply: Encodable, Sendable {
    var token: String
    var previousToken: String?
    var objects: [ObjectChange]?
    var results: [ResultChange]
}

/// A named result: the whole ordered ids (snapshot or non-incremental change).
struct ResultChange: Encodable, Sendable {
    var name: String
    var count: Int
    var hasIncrementalChanges: Bool?
    var ids: [String]

    init(name: String, ids: [String], hasIncrementalChanges: Bool? = nil) {
        self.name = name
        self.count = ids.count
        self.hasIncrementalChanges = hasIncrementalChanges
        self.ids = ids
    }
}
