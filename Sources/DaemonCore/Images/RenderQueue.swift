import DequeModule
import Foundation

/// How urgent a render is; more urgent runs first.
enum RenderPriority: Int, Comparable, CaseIterable, Sendable {
    /// Opportunistic renditions after an import: they start only while no client waits for an image.
    case idle
    /// PHCachingImageManager's warm-up hints (`StartCaching`).
    case prefetch
    /// A client waits for this image.
    case interactive
    /// A client waits for a quick degraded image (a thumbnail embedded in the file).
    case degraded

    static func < (lhs: RenderPriority, rhs: RenderPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    var isBackground: Bool { self < .interactive }
}

/// Runs blocking renders on its own threads, most urgent first, once for callers that ask for the same key.
///
/// - Callers asking for a key already queued or running share that one run, and its priority rises to theirs.
/// - A caller whose task is cancelled stops waiting at once; a queued run no one waits for any more is dropped
///   (a run that has started finishes: its result is worth keeping).
/// - Background runs (prefetch, idle) use at most `backgroundThreadLimit` threads, so that a client's request
///   finds one free; idle runs start only while no interactive or degraded run is queued or running.
/// - Clients' runs start in the order asked, background runs newest first: the latest hints are nearest what the
///   screen shows, and a client that reads photos just imported in order meets the background thread halfway instead
///   of waiting, photo after photo, for the run of the one it asks for next.
final class RenderQueue<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    // @unchecked: every mutable property is read and written with `condition` locked.

    private final class Job {
        let key: Key
        var priority: RenderPriority
        let work: @Sendable () throws -> Value
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
        /// Asked for without waiting (a warm-up hint): it runs even when no one waits.
        var isDetached = false
        var isRunning = false

        init(key: Key, priority: RenderPriority, work: @escaping @Sendable () throws -> Value) {
            self.key = key
            self.priority = priority
            self.work = work
        }
    }

    private let condition = NSCondition()
    private let backgroundThreadLimit: Int
    private var jobs: [Key: Job] = [:]
    /// Keys by the priority they were queued at; an entry whose job is gone, running or re-queued higher is skipped.
    private var queued: [RenderPriority: Deque<Key>] = [:]
    private var running: [RenderPriority: Int] = [:]
    private var nextWaiter = 0
    private var isStopped = false

    /// Starts `threadCount` threads.
    init(threadCount: Int, backgroundThreadLimit: Int) {
        self.backgroundThreadLimit = max(1, min(backgroundThreadLimit, threadCount))
        for number in 0..<max(1, threadCount) {
            Thread { [self] in
                // Named in the kernel from inside, within Linux's 15 characters, so that `top -H` and `ps -L` show
                // it: Foundation's `Thread.name` reaches the kernel only when the new thread runs after `start()` has
                // recorded its handle, which a fast thread beats.
                try? Data("render-\(number)".utf8).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
                runJobs()
            }.start()
        }
    }

    /// The value of `key`: the run already queued or running for it, or a new run of `work`.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled or the queue stopped; else what `work` threw.
    func value(for key: Key, priority: RenderPriority, work: @escaping @Sendable () throws -> Value) async throws
        -> Value
    {
        let waiter = condition.withLock {
            nextWaiter += 1
            return nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                condition.withLock {
                    guard !isStopped, !Task.isCancelled else {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    job(for: key, priority: priority, work: work).waiters[waiter] = continuation
                }
            }
        } onCancel: {
            let continuation = condition.withLock { () -> CheckedContinuation<Value, any Error>? in
                guard let job = jobs[key], let continuation = job.waiters.removeValue(forKey: waiter) else {
                    return nil
                }
                dropIfUnwanted(job)
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Queues `work` for `key` without waiting for it, unless a run of `key` is already queued or running.
    func enqueue(_ key: Key, priority: RenderPriority, work: @escaping @Sendable () throws -> Value) {
        condition.withLock {
            guard !isStopped else { return }
            job(for: key, priority: priority, work: work).isDetached = true
        }
    }

    /// Drops the queued runs of the keys `shouldDrop` picks that no one waits for.
    func dropQueued(where shouldDrop: (Key) -> Bool) {
        condition.withLock {
            for job in jobs.values where !job.isRunning && shouldDrop(job.key) {
                job.isDetached = false
                dropIfUnwanted(job)
            }
        }
    }

    /// The number of runs queued or running.
    var pendingCount: Int { condition.withLock { jobs.count } }

    /// The number of callers waiting for the run of `key`.
    func waiterCount(for key: Key) -> Int { condition.withLock { jobs[key]?.waiters.count ?? 0 } }

    /// Stops the threads once their current runs finish; callers still waiting get `CancellationError`.
    func stop() {
        let abandoned = condition.withLock { () -> [CheckedContinuation<Value, any Error>] in
            isStopped = true
            let waiters = jobs.values.filter { !$0.isRunning }.flatMap { $0.waiters.values }
            jobs = jobs.filter { $0.value.isRunning }
            queued = [:]
            condition.broadcast()
            return waiters
        }
        for continuation in abandoned {
            continuation.resume(throwing: CancellationError())
        }
    }

    // MARK: Locked

    /// The job of `key`, made and queued if there is none; raised to `priority` if it is lower. Locked.
    private func job(for key: Key, priority: RenderPriority, work: @escaping @Sendable () throws -> Value) -> Job {
        if let job = jobs[key] {
            if priority > job.priority && !job.isRunning {
                job.priority = priority
                queued[priority, default: []].append(key)
                condition.signal()
            }
            return job
        }
        let job = Job(key: key, priority: priority, work: work)
        jobs[key] = job
        queued[priority, default: []].append(key)
        condition.signal()
        return job
    }

    /// Forgets a queued job that no one waits for and no hint asked for. Locked.
    private func dropIfUnwanted(_ job: Job) {
        if !job.isRunning && job.waiters.isEmpty && !job.isDetached && jobs[job.key] === job {
            jobs[job.key] = nil
        }
    }

    /// The next job to run, taken off its queue and marked running; nil when none may run now. Locked.
    private func takeNextJob() -> Job? {
        let backgroundRunning = running[.prefetch, default: 0] + running[.idle, default: 0]
        for priority in RenderPriority.allCases.reversed() {
            if priority.isBackground && backgroundRunning >= backgroundThreadLimit { return nil }
            if priority == .idle && running[.interactive, default: 0] + running[.degraded, default: 0] > 0 {
                return nil
            }
            while let key = priority.isBackground ? queued[priority]?.popLast() : queued[priority]?.popFirst() {
                guard let job = jobs[key], job.priority == priority, !job.isRunning else { continue }
                job.isRunning = true
                running[priority, default: 0] += 1
                return job
            }
        }
        return nil
    }

    // MARK: Threads

    private func runJobs() {
        condition.lock()
        while !isStopped {
            guard let job = takeNextJob() else {
                condition.wait()
                continue
            }
            condition.unlock()
            let result = Result { try job.work() }
            condition.lock()
            running[job.priority, default: 0] -= 1
            if jobs[job.key] === job {
                jobs[job.key] = nil
            }
            let waiters = job.waiters.values
            job.waiters = [:]
            // A finished run frees a background slot, or lets idle runs start.
            condition.broadcast()
            condition.unlock()
            for continuation in waiters {
                continuation.resume(with: result)
            }
            condition.lock()
        }
        condition.unlock()
    }
}
