import Dispatch
import Foundation
import Synchronization

/// Runs the module's own asynchronous work (socket calls and the change stream)
/// on a dispatch queue of its own, never on Swift's cooperative pool: PhotoKit's API is synchronous, and
/// callers that block every thread of that pool (two on a two-core machine) must not starve the work they
/// wait for. Unstructured tasks do not inherit an executor preference: each one here names this executor.
final class ClientExecutor: TaskExecutor {
    static let shared = ClientExecutor()

    // A serial queue gets a thread of its own even while every thread of the global pool is blocked.
    private let queue = DispatchQueue(label: "photos.client")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `body` on this executor and blocks the calling thread until it returns.
    static func wait<Value>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
        try run(body).get()
    }

    /// Starts `body` on this executor; its outcome is there when it returns.
    static func run<Value>(_ body: @escaping @Sendable () async throws -> Value) -> Pending<Value> {
        let pending = Pending<Value>()
        Task(executorPreference: shared) {
            do { pending.fulfill(.success(try await body())) } catch { pending.fulfill(.failure(error)) }
        }
        return pending
    }

    /// Starts `body` on this executor without waiting.
    @discardableResult
    static func start(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: shared, operation: body)
    }
}

/// A value that work on another thread provides once; reading it blocks until it is there.
final class Pending<Value>: Sendable {
    // `Value` need not be `Sendable`: it is handed over once, through the lock, from the one thread to the readers.
    private let result: Mutex<Unchecked<Result<Value, any Error>>?>
    private let ready = DispatchSemaphore(value: 0)

    init() {
        result = Mutex(nil)
    }

    /// A value that is there from the start.
    init(_ value: Value) {
        result = Mutex(Unchecked(.success(value)))
    }

    func fulfill(_ result: Result<Value, any Error>) {
        let handed = Unchecked(result)
        self.result.withLock { $0 = handed }
        ready.signal()
    }

    func get() throws -> Value {
        if let result = result.withLock({ $0 }) { return try result.value.get() }
        ready.wait()
        ready.signal()  // for the next reader that found no value yet
        return try result.withLock { $0! }.value.get()
    }
}

/// Carries a value the compiler cannot prove `Sendable` (a caller's handler, an observer) across threads;
/// the module hands each such value to one thread at a time.
package struct Unchecked<Value>: @unchecked Sendable {
    // @unchecked: what it is for; each use hands its value to one thread at a time.
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
