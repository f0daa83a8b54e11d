import Foundation
import PhotoLibrary
import Synchronization

/// The connections asynchronous image requests share: at most `limit`, each serving one request at a time (its
/// replies come in order on it), the others waiting their turn in order. A request cancelled while it waits leaves
/// the queue; one cancelled while it runs closes its connection (its last replies could not be told from the next
/// request's), which the next request replaces.
final class ImageConnections: Sendable {
    static let shared = ImageConnections(limit: 2)

    private struct State {
        var idle: [PhotoLibrary] = []
        var open = 0
        var waiting: [(id: UUID, turn: CheckedContinuation<PhotoLibrary?, any Error>)] = []
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// How many connections the pool has open now.
    var openConnections: Int { state.withLock { $0.open } }

    /// Runs `body` on a connection of the pool, waiting for one to be free.
    func withConnection<Value: Sendable>(_ body: (PhotoLibrary) async throws -> Value) async throws -> Value {
        let library = try await take()
        do {
            let value = try await body(library)
            give(library, isUsable: !Task.isCancelled)
            return value
        } catch {
            give(library, isUsable: !Task.isCancelled && (error as? PhotoLibraryError)?.varlinkError != nil)
            throw error
        }
    }

    /// A free connection, a new one while fewer than `limit` are open, else the next one given back.
    private func take() async throws -> PhotoLibrary {
        let id = UUID()
        let handed: PhotoLibrary? = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { turn in
                let now: Result<PhotoLibrary?, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let library = state.idle.popLast() { return .success(library) }
                    if state.open < limit {
                        state.open += 1
                        return .success(nil)
                    }
                    state.waiting.append((id, turn))
                    return nil
                }
                if let now { turn.resume(with: now) }
            }
        } onCancel: {
            let turn = state.withLock { state -> CheckedContinuation<PhotoLibrary?, any Error>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).turn
            }
            turn?.resume(throwing: CancellationError())
        }
        if let handed { return handed }
        do {
            return try await LibraryClient.shared.separateConnection()
        } catch {
            give(nil, isUsable: false)
            throw error
        }
    }

    /// Gives a connection back: to the next request waiting, or to the idle ones; one that is not usable is closed,
    /// and the next request waiting opens a new one.
    private func give(_ library: PhotoLibrary?, isUsable: Bool) {
        let kept = isUsable ? library : nil
        let next = state.withLock { state -> CheckedContinuation<PhotoLibrary?, any Error>? in
            guard !state.waiting.isEmpty else {
                if let kept { state.idle.append(kept) } else { state.open -= 1 }
                return nil
            }
            return state.waiting.removeFirst().turn
        }
        if !isUsable, let library { ClientExecutor.start { await library.close() } }
        next?.resume(returning: kept)
    }
}
