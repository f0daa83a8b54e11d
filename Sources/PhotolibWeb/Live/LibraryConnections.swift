import PhotoLibrary
import Synchronization

/// A few connections to the daemon for the pages' calls, used in turn: a connection answers its calls one after
/// another, so a thumbnail does not wait behind another page's fetch. A connection that broke (the daemon
/// stopped) is dropped and made again at its next use.
final class LibraryConnections: Sendable {
    let socketPath: String?
    /// The bytes of the files the daemon names, whether or not this process may open them.
    let files: DaemonFiles
    private let slots: Slots
    private let count: Int
    private let next = Atomic<Int>(0)

    init(socketPath: String?, count: Int = 4) {
        self.socketPath = socketPath
        self.count = count
        files = DaemonFiles(transfers: FileTransfers(socketPath: PhotoLibrary.socketPath(socketPath)))
        slots = Slots(count: count)
    }

    /// Runs `body` with one of the connections, connecting first when needed; a broken connection is dropped, and
    /// with `retry` (calls that change nothing) the call is made once more on a new one (the daemon restarted).
    ///
    /// The call runs in a task of its own: a page that goes away (an image scrolled out of sight) cancels its
    /// request, and a varlink call cancelled halfway closes its connection under the other pages' calls.
    func withLibrary<Result: Sendable>(
        retry: Bool = true, _ body: @escaping @Sendable (PhotoLibrary) async throws(PhotoLibraryError) -> Result
    ) async throws(GalleryError) -> Result {
        do {
            return try await call(body)
        } catch {
            guard retry, Self.isBroken(error) else { throw error.gallery }
            do {
                return try await call(body)
            } catch {
                throw error.gallery
            }
        }
    }

    /// Runs `body` with a connection of its own, closed afterwards: for a call that holds its connection for long
    /// (a video's export), which would hold up the pages' calls behind it on a shared one.
    func withOwnLibrary<Result: Sendable>(
        _ body: (PhotoLibrary) async throws -> Result
    ) async throws -> Result {
        let library = try await PhotoLibrary.connect(socketPath: socketPath, answerWithin: .seconds(10))
        do {
            let result = try await body(library)
            await library.close()
            return result
        } catch {
            await library.close()
            throw error
        }
    }

    private static func isBroken(_ error: PhotoLibraryError) -> Bool {
        [.daemonNotRunning, .connectionFailed, .daemonStopping, .unexpectedReply].contains(error.code)
    }

    private func call<Result: Sendable>(
        _ body: @escaping @Sendable (PhotoLibrary) async throws(PhotoLibraryError) -> Result
    ) async throws(PhotoLibraryError) -> Result {
        let slot = next.wrappingAdd(1, ordering: .relaxed).oldValue % count
        let socketPath = socketPath
        let slots = slots
        let outcome = await Task { () -> Swift.Result<Result, PhotoLibraryError> in
            let library: PhotoLibrary
            if let open = slots.withLock({ $0[slot] }) {
                library = open
            } else {
                let connected: PhotoLibrary
                do throws(PhotoLibraryError) {
                    connected = try await PhotoLibrary.connect(socketPath: socketPath, answerWithin: .seconds(10))
                } catch {
                    return .failure(error)
                }
                // Another call may have filled the slot meanwhile: use its connection, close this one.
                library = slots.withLock { slots -> PhotoLibrary in
                    if let current = slots[slot] { return current }
                    slots[slot] = connected
                    return connected
                }
                if library !== connected { await connected.close() }
            }
            do throws(PhotoLibraryError) {
                return .success(try await body(library))
            } catch {
                if Self.isBroken(error) {
                    slots.withLock { if $0[slot] === library { $0[slot] = nil } }
                    await library.close()
                }
                return .failure(error)
            }
        }.value
        return try outcome.get()
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
        try await fetchAssets(ids, GalleryTile.init)
    }

    /// What `transform` makes of the assets of `ids` (hidden and trashed ones too), in no particular order, fetched in
    /// pages of 500 over the connections at once; an asset not found is left out.
    func fetchAssets<Item: Sendable>(
        _ ids: [String], _ transform: @escaping @Sendable (Asset) -> Item
    ) async throws(GalleryError) -> [Item] {
        let pages = stride(from: 0, to: ids.count, by: 500).map { Array(ids[$0..<min($0 + 500, ids.count)]) }
        if pages.count <= 1 {
            return try await fetchPage(pages.first ?? [], transform)
        }
        do {
            return try await withThrowingTaskGroup(of: [Item].self) { group in
                var items: [Item] = []
                items.reserveCapacity(ids.count)
                var pending = pages.makeIterator()
                for _ in 0..<count {
                    guard let page = pending.next() else { break }
                    group.addTask { try await self.fetchPage(page, transform) }
                }
                while let done = try await group.next() {
                    items += done
                    if let page = pending.next() { group.addTask { try await self.fetchPage(page, transform) } }
                }
                return items
            }
        } catch let error as GalleryError {
            throw error
        } catch {
            throw .badRequest("\(error)")
        }
    }

    private func fetchPage<Item: Sendable>(
        _ ids: [String], _ transform: @escaping @Sendable (Asset) -> Item
    ) async throws(GalleryError) -> [Item] {
        guard !ids.isEmpty else { return [] }
        let query = AssetQuery(ids: ids, includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)
        return try await withLibrary { library throws(PhotoLibraryError) in
            try await library.fetchAssets(matching: query, pageSize: ids.count).assets.map(transform)
        }
    }
}

/// The open connections, shared with the tasks that make calls.
private final class Slots: Sendable {
    private let connections: Mutex<[PhotoLibrary?]>

    init(count: Int) {
        connections = Mutex(Array(repeating: nil, count: count))
    }

    func withLock<Value: Sendable>(_ body: (inout [PhotoLibrary?]) -> Value) -> Value {
        connections.withLock { body(&$0) }
    }
}
