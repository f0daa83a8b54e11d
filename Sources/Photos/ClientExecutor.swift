import Dispatch
import Foundation

/// Runs the module's own asynchronous work (socket calls, the connections' message pumps, the change stream)
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
        let outcome = Outcome<Value>()
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: shared) {
            do { outcome.set(.success(try await body())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try outcome.take()
    }

    /// Starts `body` on this executor without waiting.
    @discardableResult
    static func start(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: shared, operation: body)
    }
}

/// A value handed from one thread to another behind a lock.
final class Outcome<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?

    func set(_ result: Result<Value, any Error>) {
        lock.withLock { self.result = result }
    }

    func take() throws -> Value {
        try lock.withLock { result! }.get()
    }
}

/// Carries a value the compiler cannot prove `Sendable` (a caller's handler, an observer) across threads;
/// the module hands each such value to one thread at a time.
package struct Unchecked<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
