import DaemonCore
import LibraryStore
import Logging
import MediaProbe
import PhotoModel
import PhotolibProtocol
import Varlink

/// `io.photolibd.Library`: fetches, change transactions, observation and change history.
struct LibraryInterface: VarlinkInterface {
    let name = PhotolibInterface.library.rawValue
    let description = PhotolibInterface.library.definition
    let database: LibraryDatabase
    let changeRequests: ChangeRequests
    let describer: FileDescriber
    let authorization: Authorization
    let servedFiles: ServedFiles
    let observations = ObserveStreams()

    /// Ends every `Observe` stream with `ServiceStopping`.
    func endStreams() {
        observations.endAll()
    }

    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        let access = authorization.access(of: context.caller)
        try await mappingLibraryErrors {
            guard let method = LibraryMethod(rawValue: call.methodName) else {
                throw VarlinkError.methodNotFound(call.method)
            }
            switch method {
            case .fetchAssets:
                try await fetchAssets(try call.decodeParameters(), access: access, context: context, replies: replies)
            case .fetchCollections:
                try await fetchCollections(try call.decodeParameters(), access: access, replies: replies)
            case .performChanges:
                guard access.canAdd else { throw LibraryError.permissionDenied }
                try await performChanges(
                    try call.decodeParameters(), access: access, context: context, replies: replies)
            case .observe:
                guard call.more else { throw VarlinkError.expectedMore() }
                let observation = ObserveStream(owner: context.caller?.uid)
                let observer = LibraryObserver(
                    database: database, parameters: try call.decodeParameters(),
                    canRead: access.canRead, observation: observation, replies: replies)
                try await observations.registering(observation) {
                    try await observations.endingWhenStopping { try await observer.run() }
                }
            case .updateObservation:
                guard access.canRead else { throw LibraryError.permissionDenied }
                let parameters: UpdateObservationParameters = try call.decodeParameters()
                guard let observation = observations.observation(parameters.observerId, caller: context.caller?.uid)
                else {
                    throw LibraryError.notFound(id: parameters.observerId)
                }
                try await ObservationUpdater(database: database, parameters: parameters, observation: observation)
                    .run(replies: replies)
            case .fetchPersistentChanges:
                guard access.canRead else { throw LibraryError.permissionDenied }
                try await fetchPersistentChanges(try call.decodeParameters(), replies: replies)
            case .authorizationStatus:
                let parameters: AuthorizationStatusParameters = try call.decodeParameters()
                try await replies.send(
                    AuthorizationStatusReply(status: access.status(at: parameters.accessLevel ?? .readWrite)))
            case .fetchAssetMetadata:
                guard access.canRead else { throw LibraryError.permissionDenied }
                try await fetchAssetMetadata(try call.decodeParameters(), replies: replies)
            case .fetchPlaces:
                guard access.canRead else { throw LibraryError.permissionDenied }
                let parameters: FetchPlacesParameters = try call.decodeParameters()
                let places = try await database.places.fetchPlaces(parameters.query ?? AssetQuery())
                try await replies.send(FetchPlacesReply(places: places))
            case .fetchDuplicates:
                guard access.canRead else { throw LibraryError.permissionDenied }
                let parameters: FetchDuplicatesParameters = try call.decodeParameters()
                try await replies.send(
                    FetchDuplicatesReply(groups: try await database.duplicates.fetchDuplicates(parameters.query)))
            }
        }
    }

    /// Sends a page as its rows are read, so that the client reads the first assets while the daemon reads the rest.
    private func fetchAssets(
        _ parameters: FetchAssetsParameters, access: CallerAccess, context: VarlinkCallContext,
        replies: VarlinkReplyWriter
    ) async throws {
        guard access.canRead else {
            return try await replies.send(
                AssetFetchResult(count: 0, assets: [], token: try await database.currentToken().description))
        }
        let (servedFiles, caller) = (servedFiles, context.caller)
        try await replies.send(inParts: { parts in
            let (count, token) = try await database.fetchAssets(
                parameters.query ?? AssetQuery(), offset: parameters.offset ?? 0, pageSize: parameters.pageSize ?? 500,
                includeResources: parameters.includeResources ?? false, inBatchesOf: Self.assetsPerPart
            ) { assets in
                // Named before they go out: the caller may ask for the files as soon as it reads them.
                servedFiles.name(assets.lazy.flatMap { $0.resources ?? [] }.compactMap(\.path), to: caller)
                parts.write { json, isFirst in
                    if isFirst { AssetFetchResult.writeOpening(to: &json) }
                    for asset in assets { asset.write(to: &json) }
                }
            }
            parts.write { json, isFirst in
                if isFirst { AssetFetchResult.writeOpening(to: &json) }
                AssetFetchResult.writeClosing(count: count, token: token.description, to: &json)
            }
        })
    }

    /// How many assets are read before they are written out: about 36 kB of JSON, a part of its own.
    private static let assetsPerPart = 50

    private func fetchAssetMetadata(_ parameters: FetchAssetMetadataParameters, replies: VarlinkReplyWriter)
        async throws
    {
        let query = AssetQuery(
            ids: [parameters.id], includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)
        guard
            let path = try await database.fetchAssets(query, pageSize: 1, includeResources: true).assets.first?
                .resources?.first?.path
        else { throw LibraryError.notFound(id: parameters.id) }
        do {
            try await replies.send(
                FetchAssetMetadataReply(metadata: try await describer.embeddedMetadata(ofFileAt: path)))
        } catch let error as MediaProbeError {
            throw VarlinkError(
                PhotolibErrorName.metadataUnavailable.qualified(in: .library),
                parameters: ["id": .string(parameters.id), "reason": .string(error.description)])
        }
    }

    private func fetchCollections(
        _ parameters: FetchCollectionsParameters, access: CallerAccess,
        replies: VarlinkReplyWriter
    ) async throws {
        guard access.canRead else {
            try await replies.send(
                CollectionFetchResult(count: 0, collections: [], token: try await database.currentToken().description))
            return
        }
        let page = try await database.fetchCollections(
            parameters.query ?? CollectionQuery(), offset: parameters.offset ?? 0,
            pageSize: parameters.pageSize ?? 500)
        try await replies.send(
            CollectionFetchResult(
                count: page.count, collections: page.collections,
                token: page.token.description))
    }

    private func performChanges(
        _ parameters: PerformChangesParameters, access: CallerAccess, context: VarlinkCallContext,
        replies: VarlinkReplyWriter
    ) async throws {
        var changes: [LibraryChange] = []
        for (index, request) in parameters.changes.enumerated() {
            let change = try request.validated(index: index)
            // An add-only caller creates assets and nothing else, not even an album to put them in.
            guard access.canWrite || change.op == "createAsset" else { throw LibraryError.permissionDenied }
            changes.append(change)
        }
        let outcome = try await changeRequests.perform(changes, caller: context.caller, logger: context.logger)
        try await replies.send(ChangeResult(token: outcome.token.description, created: outcome.created))
    }

    private func fetchPersistentChanges(_ parameters: FetchPersistentChangesParameters, replies: VarlinkReplyWriter)
        async throws
    {
        guard let since = ChangeToken(parameters.since), since.libraryId == database.libraryId else {
            throw LibraryError.tokenExpired
        }
        let limit = parameters.limit ?? 100
        guard limit > 0 else { throw LibraryError.invalidParameter("limit") }
        let current = try await database.currentToken()
        let oldest = try await database.history.oldestReplayableGeneration()
        guard since.generation >= oldest, since.generation <= current.generation else {
            throw LibraryError.tokenExpired
        }
        let changes = try await database.history.committedChanges(after: since.generation, limit: min(limit, 10_000))
        let token = changes.last.map { ChangeToken(libraryId: database.libraryId, generation: $0.generation) } ?? since
        try await replies.send(
            PersistentChangesPage(
                changes: changes.map { PersistentChange($0, libraryId: database.libraryId) },
                token: token.description,
                hasMore: token.generation < current.generation
            ))
    }
}

extension PersistentChange {
    /// One committed transaction as `FetchPersistentChanges` reports it.
    init(_ change: CommittedChange, libraryId: String) {
        self.init(
            token: ChangeToken(libraryId: libraryId, generation: change.generation).description,
            insertedAssetIds: [], updatedAssetIds: [], deletedAssetIds: [],
            insertedCollectionIds: [], updatedCollectionIds: [], deletedCollectionIds: [])
        for object in change.objects {
            switch (object.kind, object.change) {
            case (.asset, .inserted): insertedAssetIds.append(object.id)
            case (.asset, .changed): updatedAssetIds.append(object.id)
            case (.asset, .removed): deletedAssetIds.append(object.id)
            case (.collection, .inserted): insertedCollectionIds.append(object.id)
            case (.collection, .changed): updatedCollectionIds.append(object.id)
            case (.collection, .removed): deletedCollectionIds.append(object.id)
            }
        }
    }
}
