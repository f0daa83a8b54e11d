import CompactJSON
import Foundation
import PhotolibLocations
import PhotolibProtocol
import Varlink

/// A connection to photolibd: PhotoKit's `PHPhotoLibrary`, fetches and change observation over the daemon's socket.
///
/// Calls on one library are answered one after another; open a second library for a long `observe`
/// alongside other calls. Every method throws `PhotoLibraryError`.
public final class PhotoLibrary: Sendable {
    /// The socket this library is connected to.
    public let socketPath: String
    /// The bytes of the files the daemon names, and uploads, on connections of their own.
    public let transfers: FileTransfers
    private let connection: VarlinkConnection

    private init(socketPath: String, connection: VarlinkConnection) {
        self.socketPath = socketPath
        self.connection = connection
        self.transfers = FileTransfers(socketPath: socketPath)
    }

    /// Whether the connection is still open: false once the daemon closed it (it stopped or restarted) or `close`
    /// was called. A program holding a library opens a new one then.
    public var isConnected: Bool { connection.isOpen }

    /// The socket `connect` goes to: `socketPath`, else where `SocketLocation.forClient` finds it.
    public static func socketPath(_ socketPath: String? = nil) -> String {
        socketPath ?? SocketLocation.forClient(environment: ProcessInfo.processInfo.environment)
    }

    /// Connects to the daemon at `socketPath`, or where `SocketLocation.forClient` finds it when nil.
    ///
    /// With `answerWithin`, the daemon must answer a first call within that time, or the connect fails: a program
    /// listening on the socket that never answers would otherwise hold every call for ever.
    public static func connect(socketPath: String? = nil, answerWithin timeout: Duration? = nil) async throws(PhotoLibraryError) -> PhotoLibrary {
        let path = Self.socketPath(socketPath)
        let connection: VarlinkConnection
        do {
            connection = try await VarlinkConnection.connect(socketPath: path)
        } catch {
            throw PhotoLibraryError(error, socketPath: path)
        }
        if let timeout { try await expectAnswer(on: connection, socketPath: path, within: timeout) }
        return PhotoLibrary(socketPath: path, connection: connection)
    }

    /// Asks the service for its description and waits `timeout` at most for the answer; closes the connection
    /// when none comes.
    private static func expectAnswer(on connection: VarlinkConnection, socketPath: String,
                                     within timeout: Duration) async throws(PhotoLibraryError) {
        enum Outcome: Sendable { case answered, failed(any Error), timedOut }
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                do {
                    _ = try await connection.call("org.varlink.service.GetInfo")
                    return .answered
                } catch {
                    return .failed(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            return first
        }
        switch outcome {
        case .answered:
            return
        case .failed(let error):
            throw PhotoLibraryError(error, socketPath: socketPath)
        case .timedOut:
            await connection.close()
            throw PhotoLibraryError.noAnswer(socketPath: socketPath, within: timeout)
        }
    }

    /// Closes the connection; streams still open end.
    public func close() async {
        transfers.closeIdleConnections()
        await connection.close()
    }

    // MARK: io.photolibd.Library

    /// The page `[offset, offset + pageSize)` of the assets matching `query` (the daemon's default page is 500).
    public func fetchAssets(matching query: AssetQuery = AssetQuery(), offset: Int? = nil, pageSize: Int? = nil,
                            includeResources: Bool = false) async throws(PhotoLibraryError) -> AssetFetchResult {
        // The daemon sends a page's assets as it reads their rows: each is read here as it arrives.
        try await call(LibraryMethod.fetchAssets, FetchAssetsParameters(query: query, offset: offset, pageSize: pageSize,
                                                                         includeResources: includeResources),
                       readingAsItArrives: AssetFetchResult.self)
    }

    /// Every asset matching `query`, fetched page by page; `token` is the first page's.
    public func fetchAllAssets(matching query: AssetQuery = AssetQuery(),
                               includeResources: Bool = false) async throws(PhotoLibraryError) -> AssetFetchResult {
        try await fetchingAllPages(\.assets, count: \.count) { offset throws(PhotoLibraryError) in
            try await fetchAssets(matching: query, offset: offset, includeResources: includeResources)
        }
    }

    /// The page `[offset, offset + pageSize)` of the collections matching `query`.
    public func fetchCollections(matching query: CollectionQuery = CollectionQuery(), offset: Int? = nil,
                                 pageSize: Int? = nil) async throws(PhotoLibraryError) -> CollectionFetchResult {
        try await call(LibraryMethod.fetchCollections, FetchCollectionsParameters(query: query, offset: offset, pageSize: pageSize))
    }

    /// Every collection matching `query`, fetched page by page; `token` is the first page's.
    public func fetchAllCollections(matching query: CollectionQuery = CollectionQuery())
        async throws(PhotoLibraryError) -> CollectionFetchResult
    {
        try await fetchingAllPages(\.collections, count: \.count) { offset throws(PhotoLibraryError) in
            try await fetchCollections(matching: query, offset: offset)
        }
    }

    /// Applies `changes` atomically, as one change event; `created` maps their placeholders to real ids.
    public func performChanges(_ changes: [ChangeRequest]) async throws(PhotoLibraryError) -> ChangeResult {
        do {
            return try await call(LibraryMethod.performChanges, PerformChangesParameters(changes: changes))
        } catch {
            throw error.varlinkError.map { PhotoLibraryError($0, changeCount: changes.count) } ?? error
        }
    }

    /// Applies the changes a `ChangeBuilder` collected, atomically.
    public func performChanges(_ changes: ChangeBuilder) async throws(PhotoLibraryError) -> ChangeResult {
        try await performChanges(changes.requests)
    }

    /// The current results of the named queries, then one event per committed transaction, until cancelled.
    ///
    /// With `onlyRelevant`, transactions that change none of the results are skipped.
    public func observe(assetQueries: [String: AssetQuery] = [:], collectionQueries: [String: CollectionQuery] = [:],
                        onlyRelevant: Bool = false) -> AsyncThrowingStream<LibraryChangeEvent, any Error> {
        stream(LibraryMethod.observe, ObserveParameters(assetQueries: assetQueries, collectionQueries: collectionQueries,
                                                 onlyRelevant: onlyRelevant))
    }

    /// Adds queries to the running `observe` stream `observerId` (opened by this user on another connection)
    /// and drops the named ones; returns the added queries' full results and the token they are at.
    public func updateObservation(_ observerId: String, addingAssetQueries assetQueries: [String: AssetQuery] = [:],
                                  collectionQueries: [String: CollectionQuery] = [:], removing names: [String] = [])
        async throws(PhotoLibraryError) -> ObservationUpdate
    {
        try await call(LibraryMethod.updateObservation, UpdateObservationParameters(
            observerId: observerId, assetQueries: assetQueries, collectionQueries: collectionQueries, removeQueries: names))
    }

    /// `updateObservation` adding queries for a client that keeps results compactly: each added query's ids come
    /// packed (`PackedIDs`) into `ResultIdentifiers`, with no string per id (a million ids: 21 MB on the wire,
    /// 16 MB kept, no million allocations).
    public func addObservedQueries(_ observerId: String, assetQueries: [String: AssetQuery] = [:],
                                   collectionQueries: [String: CollectionQuery] = [:])
        async throws(PhotoLibraryError) -> CompactObservationUpdate
    {
        try await call(LibraryMethod.updateObservation, UpdateObservationParameters(
            observerId: observerId, assetQueries: assetQueries, collectionQueries: collectionQueries, removeQueries: [],
            packedIds: true))
    }

    /// The metadata written in the asset's original file (EXIF, GPS, TIFF, IPTC, XMP; a video's container tags).
    public func fetchAssetMetadata(for assetId: String) async throws(PhotoLibraryError) -> AssetMetadata {
        let reply: FetchAssetMetadataReply = try await call(LibraryMethod.fetchAssetMetadata, FetchAssetMetadataParameters(id: assetId))
        return reply.metadata
    }

    /// The transactions committed after `token`, at most `limit`; fails with `tokenExpired` past the history.
    public func fetchPersistentChanges(since token: String, limit: Int? = nil)
        async throws(PhotoLibraryError) -> PersistentChangesPage
    {
        try await call(LibraryMethod.fetchPersistentChanges, FetchPersistentChangesParameters(since: token, limit: limit))
    }

    /// What the daemon lets this process's user do at `accessLevel` (read and write when nil).
    public func authorizationStatus(accessLevel: AccessLevel? = nil) async throws(PhotoLibraryError) -> AuthorizationStatus {
        let reply: AuthorizationStatusReply = try await call(LibraryMethod.authorizationStatus,
                                                             AuthorizationStatusParameters(accessLevel: accessLevel))
        return reply.status
    }

    // MARK: io.photolibd.Import

    /// Imports files by absolute path, calling `progress` as files are done; returns each path's outcome. A `dryRun`
    /// imports nothing and returns what an import would do (`imported`, without an asset id, for a file it would add).
    public func importFiles(_ paths: [String], mode: ImportMode? = nil, album: String? = nil, dryRun: Bool = false,
                            progress: @Sendable (ImportProgress) -> Void = { _ in })
        async throws(PhotoLibraryError) -> ImportResult
    {
        let parameters = ImportFilesParameters(paths: paths, mode: mode, album: album, dryRun: dryRun ? true : nil)
        let replies: AsyncThrowingStream<ImportFilesReply, any Error> = stream(ImportMethod.importFiles, parameters)
        do {
            for try await reply in replies {
                progress(ImportProgress(processed: reply.processed, total: reply.total))
                if let files = reply.files { return ImportResult(files: files) }
            }
        } catch {
            throw PhotoLibraryError(error, socketPath: socketPath)
        }
        throw PhotoLibraryError.unexpectedReply(method: ImportMethod.importFiles.qualifiedName, reason: "the replies ended without the files")
    }

    /// The importer's counters.
    public func importStatus() async throws(PhotoLibraryError) -> ImportStatus {
        try await call(ImportMethod.status, NoParameters())
    }

    /// The import folders the daemon watches.
    public func listSources() async throws(PhotoLibraryError) -> [ImportSource] {
        let reply: ListSourcesReply = try await call(ImportMethod.listSources, NoParameters())
        return reply.sources
    }

    /// Adds an import folder, watched from now on and remembered across restarts.
    public func addSource(path: String, mode: ImportMode, recursive: Bool = true) async throws(PhotoLibraryError) {
        let _: EmptyReply = try await call(ImportMethod.addSource, AddSourceParameters(path: path, mode: mode, recursive: recursive))
    }

    /// Stops watching an import folder added with `addSource`; its assets stay in the library.
    public func removeSource(path: String) async throws(PhotoLibraryError) {
        do {
            let _: EmptyReply = try await call(ImportMethod.removeSource, RemoveSourceParameters(path: path))
        } catch {
            switch error.code {
            case .notFound:
                throw PhotoLibraryError(code: .notFound, message: "\(path) is not an import source", varlinkError: error.varlinkError)
            case .invalidParameter where error.varlinkError != nil:
                let reason = error.varlinkError?.parameters["reason"]?.stringValue ?? "?"
                throw PhotoLibraryError(code: .invalidParameter, message: "\(path) cannot be removed: \(reason)",
                                        varlinkError: error.varlinkError)
            default:
                throw error
            }
        }
    }

    // MARK: Calls

    /// Fetches the first page, then appends the following pages' items until the result is complete.
    private func fetchingAllPages<Page, Item>(
        _ items: WritableKeyPath<Page, [Item]>, count: KeyPath<Page, Int>,
        _ fetchPage: (_ offset: Int?) async throws(PhotoLibraryError) -> Page
    ) async throws(PhotoLibraryError) -> Page {
        var result = try await fetchPage(nil)
        while result[keyPath: items].count < result[keyPath: count] {
            let page = try await fetchPage(result[keyPath: items].count)
            guard !page[keyPath: items].isEmpty else { break }
            result[keyPath: items] += page[keyPath: items]
        }
        return result
    }

    /// Calls `method` and decodes its one reply, mapping every failure to a `PhotoLibraryError`.
    func call<Reply: Decodable & Sendable>(_ method: some PhotolibMethod, _ parameters: some Encodable & Sendable)
        async throws(PhotoLibraryError) -> Reply
    {
        try await mappingFailures { try await connection.call(method.qualifiedName, parameters: parameters, returning: Reply.self) }
    }

    /// Calls `method` and reads its reply as it arrives, element by element of the array that leads it; as `call`.
    func call<Reply: JSONArrayLedObject & Decodable & Sendable>(
        _ method: some PhotolibMethod, _ parameters: some Encodable & Sendable, readingAsItArrives: Reply.Type
    ) async throws(PhotoLibraryError) -> Reply {
        try await mappingFailures {
            try await connection.call(method.qualifiedName, parameters: parameters, readingAsItArrives: Reply.self)
        }
    }

    /// `call`'s result, any failure mapped to a `PhotoLibraryError`.
    private func mappingFailures<Reply>(_ call: () async throws -> Reply) async throws(PhotoLibraryError) -> Reply {
        do {
            return try await call()
        } catch {
            throw PhotoLibraryError(error, socketPath: socketPath)
        }
    }

    /// Calls `method` with `more`, mapping the stream's failure to a `PhotoLibraryError`.
    ///
    /// Replies are read as the caller asks for them, so a slow reader holds no backlog here.
    func stream<Reply: Decodable & Sendable>(_ method: some PhotolibMethod, _ parameters: some Encodable & Sendable)
        -> AsyncThrowingStream<Reply, any Error>
    {
        let replies = connection.stream(method.qualifiedName, parameters: parameters, returning: Reply.self)
        let socketPath = socketPath
        return AsyncThrowingStream {
            var iterator = replies.makeAsyncIterator()
            do {
                return try await iterator.next()
            } catch {
                throw PhotoLibraryError(error, socketPath: socketPath)
            }
        }
    }
}
