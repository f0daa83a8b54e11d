import Foundation
import Synchronization
import Testing

@testable import DaemonCore

/// A latch the test opens: work blocked on it holds its render thread until then.
private final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let arrivals = Mutex(0)

    func wait() {
        arrivals.withLock { $0 += 1 }
        semaphore.wait()
    }

    /// Whether a run has reached the gate, so that its render thread is taken.
    var isHolding: Bool { arrivals.withLock { $0 > 0 } }

    func open(_ count: Int = 1) {
        for _ in 0..<count { semaphore.signal() }
    }
}

/// Counts calls and records their order, from any thread.
private final class Log: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }

    var all: [String] { entries.withLock { $0 } }
}

/// Waits until `condition` holds, yielding between checks; after 30 seconds records an issue and returns, so that a
/// queue that never gets there fails its test instead of spinning until CI's time runs out.
private func eventually(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the queue never got there", sourceLocation: sourceLocation)
            return
        }
        await Task.yield()
    }
}

@Suite struct RenderQueueTests {
    @Test func callersAskingForTheSameKeyShareOneRun() async throws {
        let queue = RenderQueue<String, String>(threadCount: 2, backgroundThreadLimit: 1)
        defer { queue.stop() }
        let gate = Gate(), log = Log()
        let work: @Sendable () throws -> String = {
            log.record("run")
            gate.wait()
            return "image"
        }
        async let first = queue.value(for: "a", priority: .interactive, work: work)
        async let second = queue.value(for: "a", priority: .interactive, work: work)
        async let third = queue.value(for: "a", priority: .degraded, work: work)
        // All three must have joined before the run may end: a latecomer would start a run of its own.
        await eventually { queue.waiterCount(for: "a") == 3 }
        gate.open()
        #expect(try await [first, second, third] == ["image", "image", "image"])
        #expect(log.all == ["run"])
    }

    @Test func moreUrgentRunsGoFirst() async throws {
        let queue = RenderQueue<String, String>(threadCount: 1, backgroundThreadLimit: 1)
        defer { queue.stop() }
        let gate = Gate(), log = Log()
        async let blocker = queue.value(for: "blocker", priority: .interactive) {
            gate.wait(); return ""
        }
        await eventually { gate.isHolding }
        queue.enqueue("warm", priority: .prefetch) {
            log.record("warm"); return ""
        }
        async let idle = queue.value(for: "idle", priority: .idle) {
            log.record("idle"); return ""
        }
        async let asked = queue.value(for: "asked", priority: .interactive) {
            log.record("asked"); return ""
        }
        async let degraded = queue.value(for: "degraded", priority: .degraded) {
            log.record("degraded"); return ""
        }
        await eventually { queue.pendingCount == 5 }
        gate.open()
        _ = try await [blocker, idle, asked, degraded]
        await eventually { log.all.count == 4 }
        #expect(log.all == ["degraded", "asked", "warm", "idle"])
    }

    @Test func aCancelledCallerStopsWaitingAndItsQueuedRunIsDropped() async throws {
        let queue = RenderQueue<String, String>(threadCount: 1, backgroundThreadLimit: 1)
        defer { queue.stop() }
        let gate = Gate(), log = Log()
        async let blocker = queue.value(for: "blocker", priority: .interactive) {
            gate.wait(); return ""
        }
        await eventually { gate.isHolding }
        let abandoned = Task {
            try await queue.value(for: "abandoned", priority: .interactive) {
                log.record("abandoned"); return ""
            }
        }
        await eventually { queue.pendingCount == 2 }
        abandoned.cancel()
        await #expect(throws: CancellationError.self) { try await abandoned.value }
        #expect(queue.pendingCount == 1)
        gate.open()
        _ = try await blocker
        let after = try await queue.value(for: "after", priority: .interactive) {
            log.record("after"); return ""
        }
        #expect(after == "" && log.all == ["after"])
    }

    @Test func aRunSomeoneStillWaitsForSurvivesAnotherCallerLeaving() async throws {
        let queue = RenderQueue<String, String>(threadCount: 1, backgroundThreadLimit: 1)
        defer { queue.stop() }
        let gate = Gate()
        async let blocker = queue.value(for: "blocker", priority: .interactive) {
            gate.wait(); return ""
        }
        await eventually { gate.isHolding }
        let leaving = Task { try await queue.value(for: "shared", priority: .interactive) { "shared image" } }
        let staying = Task { try await queue.value(for: "shared", priority: .interactive) { "shared image" } }
        await eventually { queue.pendingCount == 2 }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        gate.open()
        _ = try await blocker
        #expect(try await staying.value == "shared image")
    }

    @Test func backgroundRunsLeaveAThreadForClients() async throws {
        let queue = RenderQueue<String, String>(threadCount: 2, backgroundThreadLimit: 1)
        defer { queue.stop() }
        let gate = Gate(), log = Log()
        queue.enqueue("warm-1", priority: .prefetch) {
            log.record("warm-1"); gate.wait(); return ""
        }
        await eventually { log.all == ["warm-1"] }
        queue.enqueue("warm-2", priority: .prefetch) {
            log.record("warm-2"); return ""
        }
        // One thread holds a warm-up; the other stays free for a client although a warm-up is queued.
        let asked = try await queue.value(for: "asked", priority: .interactive) {
            log.record("asked"); return "asked"
        }
        #expect(asked == "asked" && log.all == ["warm-1", "asked"])
        gate.open()
        await eventually { log.all.count == 3 }
    }

    /// Clients' runs go in the order asked, background runs newest first.
    @Test func clientsRunsGoInTheOrderAskedAndBackgroundRunsNewestFirst() async throws {
        let queue = RenderQueue<String, String>(threadCount: 1, backgroundThreadLimit: 1)
        defer { queue.stop() }
        let gate = Gate(), log = Log()
        async let blocker = queue.value(for: "blocker", priority: .interactive) {
            gate.wait(); return ""
        }
        await eventually { gate.isHolding }
        for hint in ["hint-1", "hint-2", "hint-3"] {
            queue.enqueue(hint, priority: .prefetch) {
                log.record(hint); return ""
            }
        }
        async let first = queue.value(for: "asked-1", priority: .interactive) {
            log.record("asked-1"); return ""
        }
        await eventually { queue.pendingCount == 5 }
        async let second = queue.value(for: "asked-2", priority: .interactive) {
            log.record("asked-2"); return ""
        }
        await eventually { queue.pendingCount == 6 }
        gate.open()
        _ = try await [blocker, first, second]
        await eventually { log.all.count == 5 }
        #expect(log.all == ["asked-1", "asked-2", "hint-3", "hint-2", "hint-1"])
    }

    @Test func stopCachingDropsQueuedHintsButNotWhatAClientWaitsFor() async throws {
        let queue = RenderQueue<String, String>(threadCount: 1, backgroundThreadLimit: 1)
        defer { queue.stop() }
        let gate = Gate(), log = Log()
        async let blocker = queue.value(for: "blocker", priority: .interactive) {
            gate.wait(); return ""
        }
        await eventually { gate.isHolding }
        async let wanted = queue.value(for: "wanted", priority: .interactive) {
            log.record("wanted"); return ""
        }
        await eventually { queue.pendingCount == 2 }
        queue.enqueue("wanted", priority: .prefetch) {
            log.record("wanted again"); return ""
        }
        queue.enqueue("hint", priority: .prefetch) {
            log.record("hint"); return ""
        }
        #expect(queue.pendingCount == 3)
        queue.dropQueued { _ in true }
        #expect(queue.pendingCount == 2)
        gate.open()
        _ = try await [blocker, wanted]
        #expect(log.all == ["wanted"])
    }

    @Test func errorsReachEveryCallerOfTheRun() async throws {
        struct Broken: Error {}
        let queue = RenderQueue<String, String>(threadCount: 1, backgroundThreadLimit: 1)
        defer { queue.stop() }
        await #expect(throws: Broken.self) {
            try await queue.value(for: "a", priority: .interactive) { throw Broken() }
        }
    }
}
