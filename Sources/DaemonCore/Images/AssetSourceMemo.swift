import LibraryStore
import Synchronization

/// The sources of recently requested assets, reused while no committed change has touched their asset: a cached
/// image is then served without reading the library.
final class AssetSourceMemo: Sendable {
    private struct Entry {
        var source: AssetImageSource
        /// The library generation at which the source is known to be current.
        var generation: Int64
    }

    private let feed: ChangeFeed
    private let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    /// Keeps up to `capacity` sources; when full, it starts afresh.
    init(feed: ChangeFeed, capacity: Int = 8_192) {
        self.feed = feed
        self.capacity = capacity
    }

    /// The library's generation now: read it before fetching a source to ``remember(_:readAt:)``.
    var generation: Int64 { feed.generation }

    /// The remembered source of `assetId`, if no change committed since it was read concerns the asset.
    func source(of assetId: String) -> AssetImageSource? {
        let current = feed.generation
        guard let entry = entries.withLock({ $0[assetId] }) else { return nil }
        guard entry.generation != current else { return entry.source }
        guard let changes = feed.changes(after: entry.generation),
            !changes.contains(where: { $0.objects.contains { $0.kind == .asset && $0.id == assetId } })
        else {
            entries.withLock { _ = $0.removeValue(forKey: assetId) }
            return nil
        }
        let checked = changes.last?.generation ?? current
        entries.withLock { entries in
            if let known = entries[assetId]?.generation, known < checked {
                entries[assetId]?.generation = checked
            }
        }
        return entry.source
    }

    /// Remembers a source fetched from the library at `generation`.
    func remember(_ source: AssetImageSource, readAt generation: Int64) {
        entries.withLock { entries in
            if entries.count >= capacity {
                entries.removeAll(keepingCapacity: true)
            }
            entries[source.assetId] = Entry(source: source, generation: generation)
        }
    }
}
