import DequeModule
import PhotoModel
import Synchronization

/// Fans committed transactions out to observers in this process.
///
/// Observers are woken, not handed data: each subscription holds at most one pending wake-up, and the
/// observer reads what it missed from a bounded ring of recent changes (or from the change log when it fell
/// further behind). A stalled observer therefore costs nothing and never slows a commit.
public final class ChangeFeed: Sendable {
    private struct State {
        var generation: Int64
        var recent: Deque<CommittedChange> = []
        var subscribers: [Int: AsyncStream<Int64>.Continuation] = [:]
        var nextSubscriberId = 0
    }

    /// How many recent changes stay in memory.
    public let retainedChanges: Int
    private let state: Mutex<State>

    init(generation: Int64, retainedChanges: Int = 1_024) {
        self.retainedChanges = retainedChanges
        state = Mutex(State(generation: generation))
    }

    /// The generation of the newest committed change.
    public var generation: Int64 { state.withLock { $0.generation } }

    /// Records a commit and wakes every subscriber; called in commit order.
    func publish(_ change: CommittedChange) {
        let subscribers = state.withLock { state in
            state.generation = change.generation
            state.recent.append(change)
            if state.recent.count > retainedChanges { state.recent.removeFirst() }
            return Array(state.subscribers.values)
        }
        // Woken outside the lock: a subscriber's task being cancelled holds the task's lock while its
        // `onTermination` takes this one, so yielding under this lock (which takes the task's) could deadlock.
        for continuation in subscribers { continuation.yield(change.generation) }
    }

    /// A stream of wake-ups carrying the newest generation; ends when the subscription is dropped.
    public func subscribe() -> AsyncStream<Int64> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            let id = state.nextSubscriberId
            state.nextSubscriberId += 1
            state.subscribers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The changes after `generation` up to the newest, if all of them are still in memory.
    public func changes(after generation: Int64) -> [CommittedChange]? {
        state.withLock { state in
            guard generation < state.generation else { return [] }
            guard let first = state.recent.first, first.generation <= generation + 1 else { return nil }
            return state.recent.filter { $0.generation > generation }
        }
    }
}
