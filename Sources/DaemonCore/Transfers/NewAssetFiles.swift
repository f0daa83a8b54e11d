import Foundation
import Glibc
import Logging
import PhotoModel

/// Prepares the files of a `createAsset` change, each a path the caller can read or an upload it sent: copied into
/// the store, the primary file's asset gaining the others as its resources (a Live Photo's movie, a RAW's JPEG).
package struct NewAssetFiles: Sendable {
    let importer: Importer
    let uploads: Uploads

    package init(importer: Importer, uploads: Uploads) {
        self.importer = importer
        self.uploads = uploads
    }

    /// The prepared asset, and the uploads it took (their files are the caller's to remove once the change is done).
    package func prepare(_ creation: AssetCreation, caller: Caller?, logger: Logger) async throws
        -> (file: PreparedFile, takenUploads: [String])
    {
        var taken: [String] = []
        var files: [PreparedFile] = []
        do {
            for file in creation.files {
                files.append(try await prepare(file, caller: caller, taking: &taken))
            }
        } catch {
            for file in files { await importer.finish(file, outcome: nil, logger: logger) }
            for path in taken { unlink(path) }
            throw error
        }
        var asset = files.removeFirst()
        for (companion, description) in zip(files, creation.files.dropFirst()) {
            guard let staged = companion.staged, let type = description.type else { continue }
            asset.companions.append(staged)
            let resource = companion.draft.resources[0]
            asset.draft.resources.append(
                DraftResource(
                    type: type, originalFilename: resource.originalFilename, mimeType: resource.mimeType,
                    fileSize: resource.fileSize, path: staged.storedPath, isOwnedByLibrary: true))
            if type == .pairedVideo { asset.draft.mediaSubtypes.insert(.photoLive) }
        }
        return (asset, taken)
    }

    private func prepare(_ file: NewAssetFile, caller: Caller?, taking taken: inout [String]) async throws
        -> PreparedFile
    {
        guard let id = file.upload else {
            let path = file.path!
            let name = file.originalFilename.map {
                UploadedFileName.name(
                    ofFileAt: path, given: $0,
                    typeIdentifier: file.uniformTypeIdentifier)
            }
            do {
                return try await importer.prepare(path: path, mode: .copy, caller: caller, filename: name)
            } catch let failure as ImportFailure {
                throw ImportFailure(kind: failure.kind, reason: "\(path): \(failure.reason)")
            }
        }
        guard let upload = uploads.take(id, owner: caller?.uid) else {
            throw ImportFailure.failed("upload '\(id)' is unknown, not complete, another user's, or used already")
        }
        taken.append(upload.path)
        let name = UploadedFileName.name(
            ofFileAt: upload.path, given: file.originalFilename ?? upload.filename,
            typeIdentifier: file.uniformTypeIdentifier)
        do {
            return try await importer.prepare(uploadAt: upload.path, filename: name)
        } catch let failure as ImportFailure {
            throw ImportFailure(kind: failure.kind, reason: "upload '\(id)' (\(name)): \(failure.reason)")
        }
    }
}
