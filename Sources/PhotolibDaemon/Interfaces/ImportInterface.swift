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
    let imports: ClientImports
    let statistics: ImportStatistics
    let authorization: Authorization
    let sources: ImportSources
    let uploads: UploadReceiver
    /// Where the library and the cache are, as `Status` reports them.
    let libraryPath: String
    let cachePath: String

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
            // Present from the start, before the analysis' first report.
            reply.analysis = reply.analysis ?? AnalysisStatus()
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
        let total = parameters.paths.count
        let files = try await mappingLibraryErrors {
            if parameters.dryRun == true {
                return try await imports.lookUp(parameters.paths, album: parameters.album, caller: context.caller)
            }
            return try await imports.importFiles(
                parameters.paths, mode: parameters.mode ?? .copy, album: parameters.album, caller: context.caller,
                logger: context.logger
            ) { processed in
                if call.more {
                    try await replies.send(ImportFilesReply(processed: processed, total: total), continues: true)
                }
            }
        }
        // The reply says the files are the library's: their copies are on disk and moved sources gone.
        try await replies.send(ImportFilesReply(processed: total, total: total, files: files))
    }
}
