import CMalloc
import NIOPosix
import Synchronization

/// Gives back to the system the memory a burst of clients leaves behind. glibc keeps what is freed for reuse: after
/// twelve 15 MiB calls the daemon stayed at 194 MB with no client connected (71 MB before), and issue 33 saw
/// 385 MB. So large buffers get mappings of their own, which freeing them unmaps, and a second after a client
/// leaves (once, however many leave together) the allocator's free pages are returned.
package final class MemoryReturn: Sendable {
    /// Blocks from this size up are mapped on their own: message buffers, decoded images.
    static let ownMappingThreshold: Int32 = 256 << 10

    private let isScheduled = Atomic<Bool>(false)
    private let threadPool: NIOThreadPool

    package init(threadPool: NIOThreadPool) {
        self.threadPool = threadPool
        // A fixed threshold also stops glibc from raising it after each large free (up to 32 MiB), which is what
        // kept 15 MiB message buffers in the heap.
        mallopt(M_MMAP_THRESHOLD, Self.ownMappingThreshold)
    }

    /// Called when a client's connection closes: returns free memory a second later.
    package func clientLeft() {
        guard !isScheduled.exchange(true, ordering: .relaxed) else { return }
        Task { [self] in
            try? await Task.sleep(for: .seconds(1))
            isScheduled.store(false, ordering: .relaxed)
            _ = try? await threadPool.runIfActive { malloc_trim(0) }
        }
    }
}
