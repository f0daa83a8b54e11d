import PhotoLibrary
import Synchronization

/// A few connections to the daemon for the pages' calls, used in turn: a connection answers its calls one after
/// another, so a thumbnail does not wait behind another page's fetch. A connection that broke (the daemon
/// stopped) is dropped and made again at its next use.
final class LibraryConnections: Sendable {
    let socketPath: String?
    private let slots: Mutex<[PhotoLibrary?]>
    private let count: Int
    private let next = Atomic<Int>(0)

    init(socketPath: String?, count: Int = 4) {
        self.socketPath = socketPath
        self.count = count
        slots = Mutex(Array(repeating: nil, count: count))
    }

    /// Runs `body` with one of the connections, connecting first when needed; a broken connection is dropped.
    func withLibrary<Result: Sendable>(
        _ body: (PhotoLibrary) async throws(PhotoLibraryError) -> Result
    ) async throws(GalleryError) -> Result {
        let slot = next.wrappingAdd(1, ordering: .relaxed).oldValue % count
        let library: PhotoLibrary
        if let open = slots.withLock({ $0[slot] }) {
            library = open
        } else {
            do {
                library = try await PhotoLibrary.connect(socketPath: socketPath, answerWithin: .seconds(10))
            } catch {
                throw .daemon(error)
            }
            let kept = slots.withLock { slots -> PhotoLibrary in
                if let current = slots[slot] { return current }
                slots[slot] = library
                return library
            }
            if kept !== library { await library.close() }
        }
        do {
            return try await body(library)
        } catch {
            let broken: [PhotoLibraryError.Code] = [.daemonNotRunning, .connectionFailed, .daemonStopping, .unexpectedReply]
            if broken.contains(error.code) {
                slots.withLock { if $0[slot] === library { $0[slot] = nil } }
                await library.close()
            }
            throw error.gallery
        }
    }

    /// Closes every connection.
    func closeAll() async {
        let open = slots.withLock { slots -> [PhotoLibrary] in
            defer { slots = Array(repeating: nil, count: slots.count) }
            return slots.compactMap { $0 }
        }
        for library in open { await library.close() }
    }

    /// The tiles of `ids` (hidden and trashed assets too), fetched in pages of 500 over the connections at once.
    func fetchTiles(_ ids: [String]) async throws(GalleryError) -> [GalleryTile] {
        let pages = stride(from: 0, to: ids.count, by: 500).map { Array(ids[$0..<min($0 + 500, ids.count)]) }
        if pages.count <= 1 {
            return try await fetchTilePage(pages.first ?? [])
        }
        do {
            return try await withThrowingTaskGroup(of: [GalleryTile].self) { group in
                var tiles: [GalleryTile] = []
                tiles.reserveCapacity(ids.count)
                var pending = pages.makeIterator()
                for _ in 0..<count {
                    guard let page = pending.next() else { break }
                    group.addTask { try await self.fetchTilePage(page) }
                }
                while let done = try await group.next() {
                    tiles += done
                    if let page = pending.next() { group.addTask { try await self.fetchTilePage(page) } }
                }
                return tiles
            }
        } catch let error as GalleryError {
            throw error
        } catch {
            throw .badRequest("\(error)")
        }
    }

    private func fetchTilePage(_ ids: [String]) async throws(GalleryError) -> [GalleryTile] {
        guard !ids.isEmpty else { return [] }
        let query = AssetQuery(ids: ids, includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)
        return try await withLibrary { library throws(PhotoLibraryError) in
            try await library.fetchAssets(matching: query, pageSize: ids.count).assets.map(GalleryTile.init)
        }
    }
}
