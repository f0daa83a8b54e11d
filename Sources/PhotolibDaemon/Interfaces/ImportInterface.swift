import LibraryStore
import Logging
import PhotoModel
import PhotolibConfig
import Synchronization
import Varlink

/// Counters `Import.Status` reports.
final class ImportStatistics: Sendable {
    struct Snapshot: Encodable, Sendable {
        var queued = 0
        var processing = 0
        var imported = 0
        var failed = 0
        var sources = 0
        var lastError: String?
    }

    private let state: Mutex<Snapshot>

    init(sources: Int) { state = Mutex(Snapshot(sources: sources)) }

    var snapshot: Snapshot { state.withLock { $0 } }

    func update(_ body: (inout Snapshot) -> Void) { state.withLock { body(&$0) } }
}

/// `io.photolibd.Import`: imports of files by path, sources and status.
struct ImportInterface: VarlinkInterface {
    let name = "io.photolibd.Import"
    let description = importInterfaceDescription
    let database: LibraryDatabase
    let importer: Importer
    let authorization: Authorization
    let sources: [SourceConfiguration]
    let statistics: ImportStatistics

    func handle(_ call: VarlinkCall, context: VarlinkCallContext, replies: VarlinkReplyWriter) async throws {
        let status = authorization.status(of: context.peer)
        switch call.methodName {
        case "ImportFiles":
            guard status.canWrite else { throw VarlinkError("io.photolibd.Import.PermissionDenied") }
            try await importFiles(try call.decodeParameters(), call: call, context: context, replies: replies)
        case "Status":
            guard status.canRead else { throw VarlinkError("io.photolibd.Import.PermissionDenied") }
            try await replies.send(statistics.snapshot)
        case "ListSources":
            guard status.canRead else { throw VarlinkError("io.photolibd.Import.PermissionDenied") }
            try await replies.send(ListSourcesReply(sources: sources.map {
                SourceReply(path: $0.path, mode: $0.mode, recursive: $0.recursive, watching: false, assetCount: 0,
                            error: "watching sources is not supported by this version of photolibd")
            }))
        case "AddSource", "RemoveSource":
            throw VarlinkError.methodNotImplemented(call.method)
        default:
            throw VarlinkError.methodNotFound(call.method)
        }
    }

    private func importFiles(_ parameters: ImportFilesParameters, call: VarlinkCall, context: VarlinkCallContext,
                             replies: VarlinkReplyWriter) async throws {
        let mode = parameters.mode ?? .copy
        if let album = parameters.album {
            // Fail before any file is touched when the album is not one.
            _ = try await mappingLibraryErrors {
                try await database.fetchAssets(AssetQuery(collection: album, limit: 0))
            }
        }
        let total = parameters.paths.count
        statistics.update { $0.queued += total }
        var results: [ImportedFile] = []
        for (index, path) in parameters.paths.enumerated() {
            try Task.checkCancellation()
            statistics.update {
                $0.queued -= 1
                $0.processing += 1
            }
            let result = await importFile(path, mode: mode, album: parameters.album, context: context)
            statistics.update {
                $0.processing -= 1
                switch result.status {
                case .imported: $0.imported += 1
                case .failed:
                    $0.failed += 1
                    $0.lastError = "\(path): \(result.error ?? "failed")"
                case .duplicate, .unsupported: break
                }
            }
            results.append(result)
            if call.more, index + 1 < total {
                try await replies.send(ImportFilesReply(processed: index + 1, total: total), continues: true)
            }
        }
        try await replies.send(ImportFilesReply(processed: total, total: total, files: results))
    }

    private func importFile(_ path: String, mode: SourceMode, album: String?, context: VarlinkCallContext) async -> ImportedFile {
        let file: PreparedFile
        do {
            file = try await importer.prepare(path: path, mode: mode, caller: context.peer)
        } catch let failure as ImportFailure {
            if failure.kind == .failed {
                context.logger.warning("import failed", metadata: ["path": "\(path)", "reason": "\(failure.reason)"])
            }
            return ImportedFile(path: path, status: failure.kind == .unsupported ? .unsupported : .failed, error: failure.reason)
        } catch {
            return ImportedFile(path: path, status: .failed, error: "\(error)")
        }
        var changes: [LibraryChange] = [.createAsset(path: path, placeholder: "@asset")]
        if let album { changes.append(.addAssets(target: album, ids: ["@asset"])) }
        do {
            let outcome = try await database.performChanges(changes, drafts: [0: file.draft])
            importer.finish(file, committedAs: outcome.assets[0], logger: context.logger)
            guard let asset = outcome.assets[0] else { return ImportedFile(path: path, status: .failed, error: "not committed") }
            return ImportedFile(path: path, status: asset.isDuplicate ? .duplicate : .imported, assetId: asset.id)
        } catch {
            importer.finish(file, committedAs: nil, logger: context.logger)
            context.logger.error("import could not be committed", metadata: ["path": "\(path)", "error": "\(error)"])
            return ImportedFile(path: path, status: .failed, error: "\(error)")
        }
    }
}

struct ImportFilesParameters: Decodable {
    var paths: [String]
    var mode: SourceMode?
    var album: String?
}

struct ImportedFile: Encodable, Sendable {
    enum Status: String, Encodable, Sendable { case imported, duplicate, unsupported, failed }
    var path: String
    var status: Status
    var assetId: String?
    var error: String?
}

struct ImportFilesReply: Encodable, Sendable {
    var processed: Int
    var total: Int
    var files: [ImportedFile]?
}

struct SourceReply: Encodable, Sendable {
    var path: String
    var mode: SourceMode
    var recursive: Bool
    var watching: Bool
    var assetCount: Int
    var error: String?
}

struct ListSourcesReply: Encodable, Sendable {
    var sources: [SourceReply]
}
