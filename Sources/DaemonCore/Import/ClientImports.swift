import LibraryStore
import Logging
import PhotoModel
import PhotolibConfig
import PhotolibProtocol

/// Files a client names by path (`ImportFiles`): each read as the caller may read it and committed in turn, counted
/// in the import statistics while it waits and while it runs; or, as a dry run, only looked up.
package struct ClientImports: Sendable {
    let ingest: IngestPipeline
    private var database: LibraryDatabase { ingest.database }
    private var statistics: ImportStatistics { ingest.statistics }

    package init(ingest: IngestPipeline) {
        self.ingest = ingest
    }

    /// Imports `paths` one after another, filing them into `album`, and calls `progress` with the count done after each
    /// file but the last; a file that fails is reported in its result, not thrown.
    ///
    /// - Throws: `LibraryError.notFound` before any file is touched when `album` is not an album; `CancellationError`
    ///   between files when the caller left.
    package func importFiles(
        _ paths: [String], mode: SourceMode, album: String?, caller: Caller?, logger: Logger,
        progress: (Int) async throws -> Void
    ) async throws -> [ImportedFile] {
        try await requireAlbum(album)
        statistics.update { $0.queued += paths.count }
        var waiting = paths.count
        // A caller that leaves takes its waiting files off the counters (its call is cancelled between files).
        defer { statistics.update { [waiting] in $0.queued -= waiting } }
        var results: [ImportedFile] = []
        for (index, path) in paths.enumerated() {
            try Task.checkCancellation()
            waiting -= 1
            statistics.update {
                $0.queued -= 1
                $0.processing += 1
            }
            // The file under way is finished whether or not its caller stays: its copy is made, and a commit cut
            // short would only have to be undone.
            let result = await Task { [self] in
                await importFile(path, mode: mode, album: album, caller: caller, logger: logger)
            }.value
            statistics.update { $0.processing -= 1 }
            results.append(result)
            if index + 1 < paths.count { try await progress(index + 1) }
        }
        // The files are the library's once their copies are on disk and moved sources gone.
        await ingest.waitUntilSettled()
        return results
    }

    /// A dry run: each file read and hashed as an import would, reported as it would be imported (`imported`, no
    /// asset id), a duplicate of an asset or of a file before it, or refused, with nothing written.
    package func lookUp(_ paths: [String], album: String?, caller: Caller?) async throws -> [ImportedFile] {
        try await requireAlbum(album)
        var results: [ImportedFile] = []
        var seen: Set<String> = []
        for path in paths {
            try Task.checkCancellation()
            do {
                let file = try await ingest.importer.prepare(path: path, mode: .reference, caller: caller)
                let hash = file.draft.contentHash
                let holder = try await database.sourceDuplicates.assetHoldingContent(hash)
                let isDuplicate = holder != nil || !seen.insert(hash).inserted
                results.append(ImportedFile(path: path, status: isDuplicate ? .duplicate : .imported, assetId: holder))
            } catch let failure as ImportFailure {
                results.append(
                    ImportedFile(
                        path: path, status: failure.kind == .unsupported ? .unsupported : .failed,
                        error: failure.reason))
            }
        }
        return results
    }

    /// Fails before any file is touched when `album` is not an album.
    private func requireAlbum(_ album: String?) async throws {
        guard let album else { return }
        _ = try await database.fetchAssets(AssetQuery(collection: album, limit: 0))
    }

    private func importFile(_ path: String, mode: SourceMode, album: String?, caller: Caller?, logger: Logger) async
        -> ImportedFile
    {
        let file: PreparedFile
        do {
            file = try await ingest.importer.prepare(path: path, mode: mode, caller: caller)
        } catch let failure as ImportFailure {
            guard failure.kind != .unsupported else {
                return ImportedFile(path: path, status: .unsupported, error: failure.reason)
            }
            statistics.recordFailure(path: path, reason: failure.reason, logger: logger)
            return ImportedFile(path: path, status: .failed, error: failure.reason)
        } catch {
            statistics.recordFailure(path: path, reason: "\(error)", logger: logger)
            return ImportedFile(path: path, status: .failed, error: "\(error)")
        }
        do {
            let outcome = try await ingest.commit(file, album: album, logger: logger)
            switch outcome {
            case .inserted, .joined, .replaced:
                return ImportedFile(path: path, status: .imported, assetId: outcome.assetId)
            case .relinked, .unchanged, .duplicate:
                return ImportedFile(path: path, status: .duplicate, assetId: outcome.assetId)
            }
        } catch {
            statistics.recordFailure(path: path, reason: "the library could not record it: \(error)", logger: logger)
            return ImportedFile(path: path, status: .failed, error: "\(error)")
        }
    }
}
