import CMalloc
import Foundation
import PhotoLibrary
import Synchronization

/// The stream: the program's one `Observe` call, opened when first needed, read as replies come, and opened again
/// after the daemon comes back.
extension ChangeStream {
    /// The id of the open stream, opening it first if needed.
    func openStream() async throws -> String {
        let task: Task<String, any Error> = state.withLock { state in
            if let opening = state.opening { return opening }
            let task = Task<String, any Error>(executorPreference: ClientExecutor.shared) { try await self.connect() }
            state.opening = task
            return task
        }
        do {
            return try await task.value
        } catch {
            state.withLock { state in if state.opening == task { state.opening = nil } }
            throw error
        }
    }

    /// Opens the stream with every followed query, reads its first reply, and reads the rest in a task of
    /// its own; returns the stream's id.
    private func connect() async throws -> String {
        let library = try await LibraryClient.shared.separateConnection()
        let (followed, since) = state.withLock { state in
            (state.registrations.values.filter { $0.identifiers != nil }, state.lastToken)
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
        state.withLock { state in
            state.observerId = observerId
            state.lastToken = first.token
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
        state.withLock { state in
            state.observerId = nil
            state.opening = nil
        }
        let gone = ContinuousClock.now
        ClientExecutor.start { [self] in
            var delay: UInt64 = 100_000_000
            while true {
                if (try? await openStream()) != nil {
                    state.withLock { $0.unavailability = nil }
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
        let newIds = Dictionary(
            snapshot.results.map { ($0.name, $0.ids ?? []) }, uniquingKeysWith: { first, _ in first })
        let generation = ChangeToken(snapshot.token)?.generation ?? -1
        let transitions: [String: ResultTransition] = state.withLock { _ in
            var transitions: [String: ResultTransition] = [:]
            for registration in followed {
                guard let before = registration.identifiers, let newIds = newIds[registration.name] else { continue }
                let after = ResultIdentifiers(newIds)
                let change =
                    history == nil
                    ? FetchResultChange.full(name: registration.name, ids: newIds)
                    : FetchResultChange.difference(
                        name: registration.name, from: Array(before), to: newIds, changed: changed)
                if history != nil, change.isEmpty { continue }
                transitions[registration.name] = ResultTransition(
                    generationBefore: registration.generation, identifiersBefore: before, identifiersAfter: after,
                    change: change)
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
        let transitions: [String: ResultTransition] = state.withLock { state in
            state.lastToken = event.token
            var transitions: [String: ResultTransition] = [:]
            for result in event.results {
                guard let registration = state.registrations[result.name] else { continue }
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
        let registered = Unchecked(
            state.withLock { state in
                state.observers.removeAll { $0.value == nil }
                return state.observers
            })
        delivery.async {
            for observer in registered.value { observer.value?.photoLibraryDidChange(change) }
        }
    }
}
