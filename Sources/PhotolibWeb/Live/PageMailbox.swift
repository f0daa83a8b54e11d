import NIOCore
import Synchronization

/// The events waiting to be written to one page's event stream.
///
/// Posting never waits for the page: a page that reads too slowly gets, instead of a backlog that grows without end,
/// one `reset` event that makes it fetch its view again. So a slow page holds up neither the library's feed nor the
/// other pages.
final class PageMailbox: Sendable {
    /// Events kept for a page that has not read them; past this the page is told to reload.
    static let capacity = 256

    private struct State {
        var events: [ByteBuffer] = []
        var closed = false
    }

    private let state = Mutex(State())
    private let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init() {
        (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues an event (already in the event stream's format) for the page.
    func post(_ event: ByteBuffer) {
        let posted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            if state.events.count >= Self.capacity {
                state.events = [PageEvent.reset(reason: "this page fell behind the library's changes")]
            } else {
                state.events.append(event)
            }
            return true
        }
        if posted { wake.yield() }
    }

    /// Ends the page's stream: `events()` returns nil once drained.
    func close() {
        state.withLock { $0.closed = true }
        wake.finish()
    }

    /// The events posted since the last call, waiting until there is one; nil once closed.
    func events() async -> [ByteBuffer]? {
        var iterator = wakeUps.makeAsyncIterator()
        while true {
            let (events, closed) = state.withLock { state in
                defer { state.events.removeAll(keepingCapacity: true) }
                return (state.events, state.closed)
            }
            if !events.isEmpty { return events }
            if closed { return nil }
            guard await iterator.next() != nil else {
                return state.withLock { state in state.events.isEmpty ? nil : state.events }
            }
        }
    }
}
