import Foundation
import PhotoLibrary
import Synchronization

/// The module's connection for calls to the daemon, opened on first use and opened again after it broke.
///
/// Calls block their caller (PhotoKit's API is synchronous) while the work runs on `ClientExecutor`.
package final class LibraryClient: Sendable {
    package static let shared = LibraryClient()

    private struct State {
        var library: PhotoLibrary?
        var fileTransfers: FileTransfers?
        /// What the daemon answered the last time it was asked what this user may do.
        var knownStatus: AuthorizationStatus?
    }

    private let state = Mutex(State())

    /// The transfers of the daemon's files for the socket programs find now (`PHOTOLIBD_SOCKET` may change).
    package var transfers: FileTransfers {
        let socketPath = PhotoLibrary.socketPath()
        return state.withLock { state in
            if let fileTransfers = state.fileTransfers, fileTransfers.socketPath == socketPath { return fileTransfers }
            let transfers = FileTransfers(socketPath: socketPath)
            state.fileTransfers = transfers
            return transfers
        }
    }

    /// Whether the daemon grants this user reading only (as last heard): its refusals are `accessRestricted`.
    var hasReadOnlyGrant: Bool { state.withLock { $0.knownStatus == .restricted } }

    /// Remembers what the daemon said this user may do.
    func remember(_ status: AuthorizationStatus) {
        state.withLock { $0.knownStatus = status }
    }

    /// Calls the daemon and waits for the answer. A call that fails because the connection broke (the daemon
    /// restarted) is sent again once over a new connection when `idempotent`.
    package func call<Value: Sendable>(
        idempotent: Bool = true,
        _ body: @escaping @Sendable (PhotoLibrary) async throws(PhotoLibraryError) -> Value
    ) throws -> Value {
        try ClientExecutor.wait { try await self.callAsync(idempotent: idempotent, body) }
    }

    /// `call` for code already running on the executor.
    func callAsync<Value: Sendable>(
        idempotent: Bool = true,
        _ body: @Sendable (PhotoLibrary) async throws(PhotoLibraryError) -> Value
    ) async throws -> Value {
        let library = try await connection()
        do {
            return try await body(library)
        } catch  where error.code == .connectionFailed {
            drop(library)
            guard idempotent else { throw error }
            return try await body(try await connection())
        }
    }

    /// A connection of its own, for a stream that would hold up the shared one.
    func separateConnection() async throws(PhotoLibraryError) -> PhotoLibrary {
        try await PhotoLibrary.connect()
    }

    private func connection() async throws(PhotoLibraryError) -> PhotoLibrary {
        if let library = state.withLock({ $0.library }) {
            // One the daemon closed (it restarted) is replaced before a call that could not be sent again.
            guard !library.isConnected else { return library }
            drop(library)
        }
        let connected = try await PhotoLibrary.connect()
        return state.withLock { state in
            if let library = state.library { return library }
            state.library = connected
            return connected
        }
    }

    private func drop(_ broken: PhotoLibrary) {
        state.withLock { state in if state.library === broken { state.library = nil } }
        ClientExecutor.start { await broken.close() }
    }
}

extension PhotoLibrary {
    /// The assets with these ids, by id, whatever their hidden, trashed or burst state.
    package func assets(withIds ids: [String]) async throws(PhotoLibraryError) -> [String: Asset] {
        let query = AssetQuery(ids: ids, includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)
        let page = try await fetchAssets(matching: query, pageSize: max(ids.count, 1))
        return Dictionary(page.assets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The collections with these ids, by id.
    package func collections(withIds ids: [String]) async throws(PhotoLibraryError) -> [String: AssetCollection] {
        let page = try await fetchCollections(matching: CollectionQuery(ids: ids), pageSize: max(ids.count, 1))
        return Dictionary(page.collections.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
