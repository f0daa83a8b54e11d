import NIOCore

/// Runs a task's jobs on an event loop, the one that does a connection's I/O: a message read there is handled
/// there, and its reply written there, with no hand-off to Swift's shared pool and back for each message (and
/// tasks that block the pool's threads cannot stall the exchange). Blocking work still goes to the thread pools
/// and database queues made for it.
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
