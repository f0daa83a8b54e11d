import Glibc
import LibraryStore
import Logging
import PhotoModel

/// What one `PerformChanges` call asks for, made real in one transaction: new assets' files prepared (from paths or
/// uploads), edits' rendered files checked, then every change committed at once, or nothing.
package struct ChangeRequests: Sendable {
    let database: LibraryDatabase
    let ingest: IngestPipeline
    let editor: AssetEditor
    let uploads: Uploads

    package init(database: LibraryDatabase, ingest: IngestPipeline, editor: AssetEditor, uploads: Uploads) {
        self.database = database
        self.ingest = ingest
        self.editor = editor
        self.uploads = uploads
    }

    /// Prepares the files `changes` bring and commits them; a change whose file cannot be taken throws
    /// `LibraryError.invalidChange` with its index, and nothing is changed.
    package func perform(_ changes: [LibraryChange], caller: Caller?, logger: Logger) async throws -> ChangeOutcome {
        var prepared: [Int: PreparedFile] = [:], edits: [Int: PreparedEdit] = [:]
        // The batch holds its files until it commits: only the first ones keep their bytes for first renditions, the
        // others' are made from their files.
        var heldBytes = 0
        // Uploads the changes took are removed once the call is done, whatever became of it.
        var takenUploads: [String] = []
        defer { for path in takenUploads { unlink(path) } }
        var isCommitting = false
        let outcome: ChangeOutcome
        do {
            for (index, change) in changes.enumerated() {
                do {
                    switch change {
                    case .createAsset(let creation):
                        let made = try await NewAssetFiles(importer: ingest.importer, uploads: uploads)
                            .prepare(creation, caller: caller, logger: logger)
                        var file = made.file
                        takenUploads += made.takenUploads
                        if let kept = file.firstRendition?.contents {
                            heldBytes += kept.count
                            if heldBytes > ImportedPhotoContents.byteLimit { file.firstRendition = .fromFile }
                        }
                        if let chosen = creation.id { file.newAssetId = chosen }
                        prepared[index] = file
                    case .editAsset(let target, let renderedPath, let adjustment, nil):
                        edits[index] = try await editor.prepare(
                            target: target, renderedPath: renderedPath, adjustment: adjustment, caller: caller)
                    case .editAsset(let target, _, let adjustment, let upload?):
                        // The caller's own bytes, kept by the daemon: no check of the caller's access to a path.
                        guard let taken = uploads.take(upload, owner: caller?.uid) else {
                            throw ImportFailure.failed(
                                "upload '\(upload)' is unknown, not complete, another user's, or used already")
                        }
                        takenUploads.append(taken.path)
                        edits[index] = try await editor.prepare(
                            target: target, renderedPath: taken.path, adjustment: adjustment, caller: caller,
                            isCallersUpload: true)
                    default:
                        continue
                    }
                } catch let failure as ImportFailure {
                    throw LibraryError.invalidChange(index: index, reason: failure.reason)
                } catch LibraryError.notFound(let id, nil) {
                    throw LibraryError.notFound(id: id, index: index)
                }
            }
            isCommitting = true
            outcome = try await ingest.commit(prepared, logger: logger) {
                let outcome = try await database.performChanges(
                    changes, drafts: prepared.mapValues(\.draft), newAssetIds: prepared.mapValues(\.newAssetId),
                    edits: edits.mapValues(\.draft))
                return (outcome, outcome.assets)
            }
        } catch {
            for edit in edits.values { editor.finish(edit, isCommitted: false) }
            // Once handed to the commit, the files are its to drop.
            if !isCommitting {
                for file in prepared.values { await ingest.importer.finish(file, outcome: nil, logger: logger) }
            }
            throw error
        }
        for edit in edits.values { editor.finish(edit, isCommitted: true) }
        await StoreFileRemoval(database: database).remove(outcome.purgedFiles, logger: logger)
        return outcome
    }
}
