import DequeModule
import NIOCore
import Synchronization

/// The grid thumbnails the pages fetched last, kept in memory so that a page scrolling back, or another page, gets
/// them without a call to the daemon. An image's URL names the version of its pixels, so a kept one cannot be stale;
/// an asset that leaves the library leaves here too (the change feed says so), and a kept thumbnail is asked for again
/// after `lifetime`, so that the daemon's access policy decides anew.
final class RecentThumbnails: Sendable {
    struct Thumbnail: Sendable {
        var bytes: ByteBuffer
        var mimeType: String
    }

    /// The most bytes kept; the oldest go first.
    let byteLimit: Int
    let lifetime: Duration
    private let state = Mutex(State())

    private struct State {
        var entries: [String: (thumbnail: Thumbnail, assetId: String, kept: ContinuousClock.Instant)] = [:]
        var order: Deque<String> = []
        var byteCount = 0
    }

    init(byteLimit: Int = 32 << 20, lifetime: Duration = .seconds(60)) {
        self.byteLimit = byteLimit
        self.lifetime = lifetime
    }

    /// Only thumbnails this small are kept: a screenful of tiles fits many times over.
    static let largestKept = 256 << 10

    func thumbnail(for key: String) -> Thumbnail? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.entries[key], entry.kept.duration(to: now) < lifetime else { return nil }
            return entry.thumbnail
        }
    }

    func keep(_ thumbnail: Thumbnail, for key: String, assetId: String) {
        let size = thumbnail.bytes.readableBytes
        guard size <= Self.largestKept else { return }
        state.withLock { state in
            if let replaced = state.entries.updateValue((thumbnail, assetId, .now), forKey: key) {
                state.byteCount -= replaced.thumbnail.bytes.readableBytes
            } else {
                state.order.append(key)
            }
            state.byteCount += size
            while state.byteCount > byteLimit, let oldest = state.order.popFirst() {
                if let gone = state.entries.removeValue(forKey: oldest) { state.byteCount -= gone.thumbnail.bytes.readableBytes }
            }
        }
    }

    /// Forgets the thumbnails of assets that left the library.
    func forget(assetIds: Set<String>) {
        guard !assetIds.isEmpty else { return }
        state.withLock { state in
            let gone = state.entries.filter { assetIds.contains($0.value.assetId) }
            guard !gone.isEmpty else { return }
            for (key, entry) in gone {
                state.entries.removeValue(forKey: key)
                state.byteCount -= entry.thumbnail.bytes.readableBytes
            }
            state.order.removeAll { gone[$0] != nil }
        }
    }
}
