import DaemonCore
import LibraryStore
import Logging
import PhotoModel
import PhotolibConfig
import PhotolibProtocol
import Varlink

/// `io.photolibd.Import`: imports of files by path, sources and status.
struct ImportInterface: VarlinkInterface {
    let name = PhotolibInterface.importer.rawValue
    let description = PhotolibInterface.importer.definition
    let ingest: IngestPipeline
    let authorization: Authorization
    let sources: ImportSources
    let uploads: UploadReceiver
    /// Where the library and the cache are, as `Status` reports them.
    let libraryPath: String
    let cachePath: String
    private var database: LibraryDatabase { ingest.database }
    private var statistics: ImportStatistics { ingest.statistics }

    func acceptsUpgrade(_ methodName: String) -> Bool {
        methodName == ImportMethod.upload.rawValue
    }

    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        let access = authorization.access(of: context.caller)
        let permissionDenied = VarlinkError(PhotolibErrorName.permissionDenied.qualified(in: .importer))
        guard let method = ImportMethod(rawValue: call.methodName) else {
            throw VarlinkError.methodNotFound(call.method)
        }
        switch method {
        case .importFiles:
            guard access.canAdd else { throw permissionDenied }
            let parameters: ImportFilesParameters = try call.decodeParameters()
            // Filing into an album reads and changes the library: more than an add-only grant allows.
            guard access.canWrite || parameters.album == nil else { throw permissionDenied }
            try await importFiles(parameters, call: call, context: context, replies: replies)
        case .status:
            guard access.canRead else { throw permissionDenied }
            await sources.refreshStatistics()
            var reply = statistics.snapshot
            reply.version = PhotolibVersion.current
            reply.library = libraryPath
            reply.cache = cachePath
            reply.leftInDropFolders = statistics.filesLeftInDropFolders()
            try await replies.send(reply)
        case .listSources:
            guard access.canRead else { throw permissionDenied }
            try await replies.send(ListSourcesReply(sources: try await sources.list()))
        case .addSource:
            guard access.canWrite else { throw permissionDenied }
            let parameters: AddSourceParameters = try call.decodeParameters()
            try await mappingSourceErrors {
                guard CallerFileAccess.canRead(parameters.path, caller: context.caller) else {
                    throw SourceError(
                        kind: .invalid, path: parameters.path, reason: "the calling user cannot read this folder")
                }
                try await sources.add(
                    SourceConfiguration(
                        path: parameters.path, mode: parameters.mode,
                        recursive: parameters.recursive ?? true))
            }
            try await replies.send(EmptyReply())
        case .upload:
            guard access.canAdd else { throw permissionDenied }
            try await uploads.receive(try call.decodeParameters(), call: call, context: context, replies: replies)
        case .removeSource:
            guard access.canWrite else { throw permissionDenied }
            let parameters: RemoveSourceParameters = try call.decodeParameters()
            try await mappingSourceErrors { try await sources.remove(path: parameters.path) }
            try await replies.send(EmptyReply())
        }
    }

    private func mappingSourceErrors(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as SourceError {
            throw error.varlinkError
        }
    }

    private func importFiles(
        _ parameters: ImportFilesParameters, call: VarlinkCall, context: VarlinkCallContext,
        replies: VarlinkReplyWriter
    ) async throws {
        let mode = parameters.mode ?? .copy
        if let album = parameters.album {
            // Fail before any file is touched when the album is not one.
            _ = try await mappingLibraryErrors {
                try await database.fetchAssets(AssetQuery(collection: album, limit: 0))
            }
        }
        let total = parameters.paths.count
        if parameters.dryRun == true { return try await lookUp(parameters.paths, context: context, replies: replies) }
        statistics.update { $0.queued += total }
        var waiting = total
        // A caller that leaves takes its waiting files off the counters (its call is cancelled between files).
        defer { statistics.update { [waiting] in $0.queued -= waiting } }
        var results: [ImportedFile] = []
        for (index, path) in parameters.paths.enumerated() {
            try Task.checkCancellation()
            waiting -= 1
            statistics.update {
                $0.queued -= 1
                $0.processing += 1
            }
            // The file under way is finished whether or not its caller stays: its copy is made, and a commit cut
            // short would only have to be undone.
            let result = await Task { [self] in
                await importFile(path, mode: mode, album: parameters.album, context: context)
            }.value
            statistics.update { $0.processing -= 1 }
            results.append(result)
            if call.more, index + 1 < total {
                try await replies.send(ImportFilesReply(processed: index + 1, total: total), continues: true)
            }
        }
        // The reply says the files are the library's: their copies are on disk and moved sources gone.
        await ingest.waitUntilSettled()
        try await replies.send(ImportFilesReply(processed: total, total: total, files: results))
    }

    /// A dry run: each file read and hashed as an import would, reported as it would be imported (`imported`, no
    /// asset id), a duplicate of an asset or of a file before it, or refused, with nothing written.
    private func lookUp(_ paths: [String], context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        var results: [ImportedFile] = []
        var seen: Set<String> = []
        for path in paths {
            try Task.checkCancellation()
            do {
                let file = try await ingest.importer.prepare(path: path, mode: .reference, caller: context.caller)
                let hash = file.draft.contentHash
                let holder = try await database.assetHoldingContent(hash)
                let isDuplicate = holder != nil || !seen.insert(hash).inserted
                results.append(ImportedFile(path: path, status: isDuplicate ? .duplicate : .imported, assetId: holder))
            } catch let failure as ImportFailure {
                results.append(
                    ImportedFile(
                        path: path, status: failure.kind == .unsupported ? .unsupported : .failed,
                        error: failure.reason))
            }
        }
        try await replies.send(ImportFilesReply(processed: paths.count, total: paths.count, files: results))
    }

    private func importFile(_ path: String, mode: SourceMode, album: String?, context: VarlinkCallContext) async
        -> ImportedFile
    {
        let file: PreparedFile
        do {
            file = try await ingest.importer.prepare(path: path, mode: mode, caller: context.caller)
        } catch let failure as ImportFailure {
            guard failure.kind != .unsupported else {
                return ImportedFile(path: path, status: .unsupported, error: failure.reason)
            }
            statistics.recordFailure(path: path, reason: failure.reason, logger: context.logger)
            return ImportedFile(path: path, status: .failed, error: failure.reason)
        } catch {
            statistics.recordFailure(path: path, reason: "\(error)", logger: context.logger)
            return ImportedFile(path: path, status: .failed, error: "\(error)")
        }
        do {
            let outcome = try await mappingLibraryErrors {
                try await ingest.commit(file, album: album, logger: context.logger)
            }
            switch outcome {
            case .inserted, .joined, .replaced:
                return ImportedFile(path: path, status: .imported, assetId: outcome.assetId)
            case .relinked, .unchanged, .duplicate:
                return ImportedFile(path: path, status: .duplicate, assetId: outcome.assetId)
            }
        } catch {
            statistics.recordFailure(
                path: path, reason: "the library could not record it: \(error)", logger: context.logger)
            return ImportedFile(path: path, status: .failed, error: "\(error)")
        }
    }
}
