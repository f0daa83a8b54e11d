import CMalloc
import Foundation
import PhotoLibrary
import Synchronization

/// A query a fetch result follows.
enum FollowedQuery: Sendable, Hashable {
    case assets(AssetQuery)
    case collections(CollectionQuery)
}

/// One query the daemon follows for this program, with its result as of the last change read.
///
/// Held by every fetch result of that query (a result and the results after its changes); when the last one
/// goes, the daemon stops following it.
final class ResultRegistration: @unchecked Sendable {
    let name: String
    let query: FollowedQuery
    /// Guarded by `ChangeStream`'s lock.
    var identifiers: Identifiers?
    var generation: Int64 = -1
    /// Changes read before the daemon's answer with the first result arrived.
    var early: [(generation: Int64, change: FetchResultChange)] = []
    private let holders = Mutex(0)

    init(name: String, query: FollowedQuery) {
        self.name = name
        self.query = query
    }

    func retain() {
        holders.withLock { $0 += 1 }
    }

    func release() {
        let left = holders.withLock { holders in
            holders -= 1
            return holders
        }
        if left == 0 { ChangeStream.shared.unfollow(self) }
    }
}

/// What a transaction did to one followed result.
struct ResultTransition: @unchecked Sendable {
    var generationBefore: Int64
    var identifiersBefore: Identifiers
    var identifiersAfter: Identifiers
    var change: FetchResultChange
}

/// The daemon's `Observe` stream for this program: keeps every followed result current, and turns each
/// committed transaction into one `PHChange` for the registered change observers, in commit order.
///
/// When the daemon restarts, the stream is opened again; what changed meanwhile is read from the change
/// history and reported as one `PHChange` (non-incremental details when the history no longer reaches back).
final class ChangeStream: @unchecked Sendable {
    static let shared = ChangeStream()

    let lock = NSLock()
    private var observerId: String?
    private var lastToken: String?
    private var opening: Task<String, any Error>?
    private var registrations: [String: ResultRegistration] = [:]
    private var nameCount = 0
    /// Held weakly, as PhotoKit holds them: a released observer is dropped.
    private var observers: [WeakChangeObserver] = []
    var availabilityObservers: [WeakAvailabilityObserver] = []
    /// Set when the daemon was gone longer than `reconnectWindow`; cleared when the stream opens again.
    var unavailability: PHPhotosError?
    /// How long the daemon may be away (a restart) before the library is reported unavailable.
    static let reconnectWindow = Duration.seconds(10)
    /// Handlers run here, one change at a time, never on the caller's thread.
    let delivery = DispatchQueue(label: "photos.changes")

    // MARK: Followed results

    /// Asks the daemon to follow `query`; returns its registration (held once for the caller) at once, and the
    /// result's identifiers with the generation they are at when the daemon has answered (none, at generation
    /// -1, when it could not answer).
    func follow(_ query: FollowedQuery) -> (ResultRegistration, Pending<(Identifiers, Int64)>) {
        let registration = lock.withLock {
            nameCount += 1
            let registration = ResultRegistration(name: "r\(nameCount)", query: query)
            registrations[registration.name] = registration
            return registration
        }
        registration.retain()
        let loaded = ClientExecutor.run { [self] in
            do {
                let observerId = try await openStream()
                let update = try await LibraryClient.shared.callAsync { library throws(PhotoLibraryError) in
                    switch query {
                    case .assets(let assets):
                        try await library.updateObservation(observerId, addingAssetQueries: [registration.name: assets])
                    case .collections(let collections):
                        try await library.updateObservation(observerId, collectionQueries: [registration.name: collections])
                    }
                }
                let (loaded, droppedMeanwhile) = lock.withLock {
                    registration.identifiers = Identifiers(update.results.first?.ids ?? [])
                    registration.generation = ChangeToken(update.token)?.generation ?? -1
                    for (changeGeneration, change) in registration.early where changeGeneration > registration.generation {
                        registration.identifiers = registration.identifiers!.applying(change)
                        registration.generation = changeGeneration
                    }
                    registration.early = []
                    return ((registration.identifiers!, registration.generation), registrations[registration.name] !== registration)
                }
                if droppedMeanwhile { await stopFollowing(registration.name, observerId: observerId) }
                // The reply's text and strings are freed by now; without a trim the allocator keeps their pages,
                // and a large result would cost the program several times its packed identifiers.
                if loaded.0.count >= 100_000 { malloc_trim(0) }
                return loaded
            } catch {
                _ = lock.withLock { registrations.removeValue(forKey: registration.name) }
                PhotosLog.report("a fetch failed and is empty", error)
                return (Identifiers([]), -1)
            }
        }
        return (registration, loaded)
    }

    /// Stops following a query no fetch result holds any more.
    func unfollow(_ registration: ResultRegistration) {
        let observerId: String? = lock.withLock {
            // A result dropped before the daemon answered its fetch is dropped by `follow` once the answer is in.
            guard registrations.removeValue(forKey: registration.name) != nil, registration.identifiers != nil else { return nil }
            return self.observerId
        }
        guard let observerId else { return }
        ClientExecutor.start { await self.stopFollowing(registration.name, observerId: observerId) }
    }

    /// Asks the daemon to drop the query registered as `name`.
    private func stopFollowing(_ name: String, observerId: String) async {
        _ = try? await LibraryClient.shared.callAsync { library throws(PhotoLibraryError) in
            try await library.updateObservation(observerId, removing: [name])
        }
    }

    // MARK: Change observers

    func register(_ observer: any PHPhotoLibraryChangeObserver) {
        lock.withLock {
            observers.removeAll { $0.value == nil }
            observers.append(WeakChangeObserver(value: observer))
        }
        openOrRetry()
    }

    func unregister(_ observer: any PHPhotoLibraryChangeObserver) {
        lock.withLock { observers.removeAll { $0.value == nil || $0.value === observer } }
    }

    /// Opens the stream now, or keeps trying in the background when the daemon does not answer yet.
    func openOrRetry() {
        do {
            _ = try ClientExecutor.wait { [self] in try await openStream() }
        } catch {
            PhotosLog.report("changes cannot be observed yet (the stream opens again when the daemon answers)", error)
            ClientExecutor.start { [self] in _ = try? await openStream() }
        }
    }

    // MARK: The stream

    /// The id of the open stream, opening it first if needed.
    private func openStream() async throws -> String {
        let task: Task<String, any Error> = lock.withLock {
            if let opening { return opening }
            let task = Task<String, any Error>(executorPreference: ClientExecutor.shared) { try await self.connect() }
            opening = task
            return task
        }
        do {
            return try await task.value
        } catch {
            lock.withLock { if opening == task { opening = nil } }
            throw error
        }
    }

    /// Opens the stream with every followed query, reads its first reply, and reads the rest in a task of
    /// its own; returns the stream's id.
    private func connect() async throws -> String {
        let library = try await LibraryClient.shared.separateConnection()
        let (followed, since) = lock.withLock {
            (registrations.values.filter { $0.identifiers != nil }, lastToken)
        }
        var assetQueries: [String: AssetQuery] = [:], collectionQueries: [String: CollectionQuery] = [:]
        for registration in followed {
            switch registration.query {
            case .assets(let query): assetQueries[registration.name] = query
            case .collections(let query): collectionQueries[registration.name] = query
            }
        }
        let events = library.observe(assetQueries: assetQueries, collectionQueries: collectionQueries)
        var iterator = events.makeAsyncIterator()
        guard let first = try await iterator.next(), let observerId = first.observerId else {
            throw PhotoLibraryError(code: .unexpectedReply, message: "photolibd's Observe stream sent no observer id")
        }
        if let since {
            await catchUp(since: since, snapshot: first, followed: followed)
        }
        lock.withLock {
            self.observerId = observerId
            lastToken = first.token
        }
        let replies = Unchecked(iterator)
        ClientExecutor.start { [self] in
            var iterator = replies.value
            await read(&iterator)
            await library.close()
            reopen()
        }
        return observerId
    }

    /// Applies every reply of the stream until it ends.
    private func read(_ iterator: inout AsyncThrowingStream<LibraryChangeEvent, any Error>.AsyncIterator) async {
        do {
            while let event = try await iterator.next() {
                apply(event)
            }
        } catch {
            PhotosLog.report("the change stream broke; it opens again when the daemon answers", error)
        }
    }

    /// Opens the stream again after it ended (the daemon stopped), retrying until the daemon answers; tells the
    /// availability observers when that takes longer than the reconnect window.
    private func reopen() {
        lock.withLock {
            observerId = nil
            opening = nil
        }
        let gone = ContinuousClock.now
        ClientExecutor.start { [self] in
            var delay: UInt64 = 100_000_000
            while true {
                if (try? await openStream()) != nil {
                    lock.withLock { unavailability = nil }
                    return
                }
                if ContinuousClock.now - gone > Self.reconnectWindow { reportUnavailable() }
                try? await Task.sleep(nanoseconds: delay)
                delay = min(delay * 2, 2_000_000_000)
            }
        }
    }

    /// Brings every followed result from its state before the stream ended to the new stream's snapshot,
    /// and reports the difference as one change.
    private func catchUp(since token: String, snapshot: LibraryChangeEvent, followed: [ResultRegistration]) async {
        let history = await missedChanges(since: token)
        let changed = Set(history?.flatMap { $0.updatedAssetIds + $0.updatedCollectionIds } ?? [])
        let newIds = Dictionary(snapshot.results.map { ($0.name, $0.ids ?? []) }, uniquingKeysWith: { first, _ in first })
        let generation = ChangeToken(snapshot.token)?.generation ?? -1
        let transitions: [String: ResultTransition] = lock.withLock {
            var transitions: [String: ResultTransition] = [:]
            for registration in followed {
                guard let before = registration.identifiers, let newIds = newIds[registration.name] else { continue }
                let after = Identifiers(newIds)
                let change = history == nil
                    ? FetchResultChange.full(name: registration.name, ids: newIds)
                    : FetchResultChange.difference(name: registration.name, from: Array(before), to: newIds, changed: changed)
                if history != nil, change.isEmpty { continue }
                transitions[registration.name] = ResultTransition(
                    generationBefore: registration.generation, identifiersBefore: before, identifiersAfter: after, change: change)
                registration.identifiers = after
                registration.generation = generation
            }
            return transitions
        }
        let objects = history.map(Self.objects(in:)) ?? []
        guard !transitions.isEmpty || !objects.isEmpty || history == nil else { return }
        deliver(PHChange(generation: generation, objects: objects, transitions: transitions))
    }

    /// The changes committed after `token`, or nil when the history no longer reaches back that far.
    private func missedChanges(since token: String) async -> [PersistentChange]? {
        var changes: [PersistentChange] = []
        var since = token
        while true {
            let page: PersistentChangesPage
            let after = since
            do {
                page = try await LibraryClient.shared.callAsync { library throws(PhotoLibraryError) in
                    try await library.fetchPersistentChanges(since: after, limit: 1_000)
                }
            } catch {
                return nil
            }
            changes += page.changes
            since = page.token
            if !page.hasMore { return changes }
        }
    }

    private static func objects(in history: [PersistentChange]) -> [ObjectChange] {
        var objects: [ObjectChange] = []
        func add(_ ids: [String], _ kind: ObjectKind, _ change: ObjectChangeKind) {
            objects += ids.map { ObjectChange(id: $0, kind: kind, change: change) }
        }
        for change in history {
            add(change.insertedAssetIds, .asset, .inserted)
            add(change.updatedAssetIds, .asset, .changed)
            add(change.deletedAssetIds, .asset, .removed)
            add(change.insertedCollectionIds, .collection, .inserted)
            add(change.updatedCollectionIds, .collection, .changed)
            add(change.deletedCollectionIds, .collection, .removed)
        }
        return objects
    }

    /// Advances the followed results past one reply and reports it.
    private func apply(_ event: LibraryChangeEvent) {
        guard let generation = ChangeToken(event.token)?.generation else { return }
        let transitions: [String: ResultTransition] = lock.withLock {
            lastToken = event.token
            var transitions: [String: ResultTransition] = [:]
            for result in event.results {
                guard let registration = registrations[result.name] else { continue }
                guard let before = registration.identifiers else {
                    registration.early.append((generation, result))
                    continue
                }
                guard generation > registration.generation else { continue }
                let after = before.applying(result)
                transitions[result.name] = ResultTransition(
                    generationBefore: registration.generation, identifiersBefore: before, identifiersAfter: after,
                    change: result)
                registration.identifiers = after
                registration.generation = generation
            }
            return transitions
        }
        deliver(PHChange(generation: generation, objects: event.objects, transitions: transitions))
    }

    /// Calls every change observer with `change`, after the changes before it.
    private func deliver(_ change: PHChange) {
        let registered = Unchecked(lock.withLock {
            observers.removeAll { $0.value == nil }
            return observers
        })
        delivery.async {
            for observer in registered.value { observer.value?.photoLibraryDidChange(change) }
        }
    }
}

/// A change observer, held weakly.
struct WeakChangeObserver {
    weak var value: (any PHPhotoLibraryChangeObserver)?
}

/// Where the module says what went wrong in the background, where no caller can be told: standard error.
enum PhotosLog {
    static func report(_ what: String, _ error: any Error) {
        FileHandle.standardError.write(Data("Photos: \(what): \(error)\n".utf8))
    }
}
