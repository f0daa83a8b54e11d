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
    // @unchecked: its vars are read and written under `ChangeStream`'s `state` lock only.
    let name: String
    let query: FollowedQuery
    var identifiers: ResultIdentifiers?
    var generation: Int64 = -1
    /// Changes read before the daemon's answer with the first result arrived.
    var early: [(generation: Int64, change: FetchResultChange)] = []
    let holders = Mutex(0)

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
struct ResultTransition: Sendable {
    var generationBefore: Int64
    var identifiersBefore: ResultIdentifiers
    var identifiersAfter: ResultIdentifiers
    var change: FetchResultChange
}

/// The daemon's `Observe` stream for this program: keeps every followed result current, and turns each
/// committed transaction into one `PHChange` for the registered change observers, in commit order.
///
/// When the daemon restarts, the stream is opened again; what changed meanwhile is read from the change
/// history and reported as one `PHChange` (non-incremental details when the history no longer reaches back).
final class ChangeStream: Sendable {
    static let shared = ChangeStream()

    struct State {
        var observerId: String?
        var lastToken: String?
        var opening: Task<String, any Error>?
        var registrations: [String: ResultRegistration] = [:]
        var nameCount = 0
        /// Held weakly, as PhotoKit holds them: a released observer is dropped.
        var observers: [WeakChangeObserver] = []
        var availabilityObservers: [WeakAvailabilityObserver] = []
        /// Set when the daemon was gone longer than `reconnectWindow`; cleared when the stream opens again.
        var unavailability: PHPhotosError?
    }

    let state = Mutex(State())
    /// How long the daemon may be away (a restart) before the library is reported unavailable.
    static let reconnectWindow = Duration.seconds(10)
    /// Handlers run here, one change at a time, never on the caller's thread.
    let delivery = DispatchQueue(label: "photos.changes")

    // MARK: Followed results

    /// Asks the daemon to follow `query`; returns its registration (held once for the caller) at once, and the
    /// result's identifiers with the generation they are at when the daemon has answered (none, at generation
    /// -1, when it could not answer).
    func follow(_ query: FollowedQuery) -> (ResultRegistration, Pending<(ResultIdentifiers, Int64)>) {
        let registration = state.withLock { state in
            state.nameCount += 1
            let registration = ResultRegistration(name: "r\(state.nameCount)", query: query)
            state.registrations[registration.name] = registration
            return registration
        }
        registration.retain()
        let loaded = ClientExecutor.run { [self] in
            do {
                let observerId = try await openStream()
                let update = try await LibraryClient.shared.callAsync { library throws(PhotoLibraryError) in
                    switch query {
                    case .assets(let assets):
                        try await library.addObservedQueries(observerId, assetQueries: [registration.name: assets])
                    case .collections(let collections):
                        try await library.addObservedQueries(
                            observerId, collectionQueries: [registration.name: collections])
                    }
                }
                let (loaded, droppedMeanwhile) = state.withLock { state in
                    registration.identifiers = update.results[registration.name] ?? ResultIdentifiers([])
                    registration.generation = ChangeToken(update.token)?.generation ?? -1
                    for (changeGeneration, change) in registration.early
                    where changeGeneration > registration.generation {
                        registration.identifiers = registration.identifiers!.applying(change)
                        registration.generation = changeGeneration
                    }
                    registration.early = []
                    let isFollowed = state.registrations[registration.name] === registration
                    return ((registration.identifiers!, registration.generation), !isFollowed)
                }
                if droppedMeanwhile { await stopFollowing(registration.name, observerId: observerId) }
                // The reply's text is freed by now; without a trim the allocator keeps its pages, and a large result
                // would cost the program several times its packed identifiers. After the answer, not before it.
                if loaded.0.count >= 100_000 { _ = ClientExecutor.start { malloc_trim(0) } }
                return loaded
            } catch {
                _ = state.withLock { $0.registrations.removeValue(forKey: registration.name) }
                PhotosLog.report("a fetch failed and is empty", error)
                return (ResultIdentifiers([]), -1)
            }
        }
        return (registration, loaded)
    }

    /// Stops following a query no fetch result holds any more.
    func unfollow(_ registration: ResultRegistration) {
        let observerId: String? = state.withLock { state in
            // A result dropped before the daemon answered its fetch is dropped by `follow` once the answer is in.
            guard state.registrations.removeValue(forKey: registration.name) != nil, registration.identifiers != nil
            else { return nil }
            return state.observerId
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
        let observer = Unchecked(observer)
        state.withLock { state in
            state.observers.removeAll { $0.value == nil }
            state.observers.append(WeakChangeObserver(value: observer.value))
        }
        openOrRetry()
    }

    func unregister(_ observer: any PHPhotoLibraryChangeObserver) {
        let observer = Unchecked(observer)
        state.withLock { $0.observers.removeAll { $0.value == nil || $0.value === observer.value } }
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
