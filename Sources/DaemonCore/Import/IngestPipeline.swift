import FolderWatch
import LibraryStore
import Logging
import PhotoModel
import XMPAnnotations

/// The one way files become assets, whoever asks (a watched folder, `ImportFiles`, a `createAsset` change):
/// prepare each file (read, hash, copy into the store), commit it, settle its files (keep or drop the store
/// copy, remove a moved source), leave a new photo's bytes for its first rendition, and count what happened.
package struct IngestPipeline: Sendable {
    package let importer: Importer
    package let database: LibraryDatabase
    package let statistics: ImportStatistics
    /// Where a photo's bytes wait for the rendition upkeep, which takes them when the commit reaches it.
    let importedContents: ImportedPhotoContents
    /// Syncs the copies of files committed on their own after their commits, then settles them.
    let storeSync: StoreSync
    /// Reads, adopts and writes the XMP sidecars beside the files.
    let sidecars: SidecarKeeper

    package init(
        importer: Importer, database: LibraryDatabase, statistics: ImportStatistics,
        importedContents: ImportedPhotoContents, sidecars: SidecarKeeper
    ) {
        self.importer = importer
        self.database = database
        self.statistics = statistics
        self.importedContents = importedContents
        self.sidecars = sidecars
        storeSync = StoreSync(importer: importer, database: database)
    }

    /// Commits one prepared file on its own (into `album` when given) and counts it; its files are settled once
    /// its store copy is synced (`waitUntilSettled`). A file the library could not record has its store copy
    /// dropped, and the error is thrown for the caller to count.
    package func commit(_ file: PreparedFile, album: String? = nil, logger: Logger) async throws -> IngestOutcome {
        let outcome: IngestOutcome
        leaveForFirstRendition(file)
        do {
            outcome = try await database.ingest(
                file.ingestRequest(album: album), fileExists: { FileIdentity(regularFileAt: $0) != nil })
        } catch {
            importedContents.release(file.newAssetId)
            await importer.finish(file, outcome: nil, logger: logger)
            throw error
        }
        statistics.recordIngest(outcome)
        releaseUnlessInserted(file, outcome: outcome)
        followSidecar(of: file, outcome: outcome, logger: logger)
        if file.staged != nil {
            await storeSync.settleOnceSynced(file, outcome: outcome, logger: logger)
        } else {
            await importer.finish(file, outcome: outcome, logger: logger)
        }
        return outcome
    }

    /// Returns once the files of every commit so far are synced and settled.
    package func waitUntilSettled() async {
        await storeSync.waitUntilSettled()
    }

    /// Commits prepared files (by change index) within a change batch, which `commitBatch` runs and which
    /// gives each file's outcome; then settles and counts them. The store copies are synced before the batch
    /// commits; when it fails, every store copy is dropped.
    package func commit<Batch>(
        _ files: [Int: PreparedFile], logger: Logger,
        in commitBatch: () async throws -> (batch: Batch, outcomes: [Int: IngestOutcome])
    ) async throws -> Batch {
        let committed: (batch: Batch, outcomes: [Int: IngestOutcome])
        for file in files.values { leaveForFirstRendition(file) }
        do {
            let copies = files.values.flatMap { [$0.staged].compactMap { $0 } + $0.companions }.map(\.storedPath)
            try await importer.threadPool.runIfActive { [importer] in try importer.fileStore.sync(copies) }
            committed = try await commitBatch()
        } catch {
            for file in files.values {
                importedContents.release(file.newAssetId)
                await importer.finish(file, outcome: nil, logger: logger)
            }
            throw error
        }
        for (index, file) in files {
            let outcome = committed.outcomes[index]
            await importer.finish(file, outcome: outcome, logger: logger)
            releaseUnlessInserted(file, outcome: outcome)
            if let outcome {
                followSidecar(of: file, outcome: outcome, logger: logger)
                statistics.recordIngest(outcome)
            }
        }
        return committed.batch
    }

    /// Logs what of the file's annotations could not be read, and has a sidecar beside it read (kept on record)
    /// or, from a move or copy folder, carried into the library with it.
    private func followSidecar(of file: PreparedFile, outcome: IngestOutcome, logger: Logger) {
        for problem in file.annotationProblems {
            logger.warning(
                "Metadata that cannot be read is ignored",
                metadata: ["path": "\(problem.path)", "reason": "\(problem.reason)"])
        }
        if case .duplicate = outcome { return }
        // A sidecar read with a file referenced in place went on record with its commit.
        if file.mode == .reference, file.sidecar != nil, outcome.recordsSidecar { return }
        guard
            SidecarNames.candidates(forMediaAt: file.sourcePath).contains(where: {
                FileIdentity(regularFileAt: $0) != nil
            })
        else { return }
        sidecars.submit(.fileArrived(assetId: outcome.assetId, sourcePath: file.sourcePath, mode: file.mode))
    }

    /// Leaves a photo its import read whole, with its bytes when they were kept, for the first rendition of the asset
    /// its commit is to insert.
    private func leaveForFirstRendition(_ file: PreparedFile) {
        if let first = file.firstRendition { importedContents.hold(first.contents, forNewAsset: file.newAssetId) }
    }

    /// Drops the bytes left for a first rendition when the commit inserted no asset under the id they wait for.
    private func releaseUnlessInserted(_ file: PreparedFile, outcome: IngestOutcome?) {
        if outcome != .inserted(assetId: file.newAssetId) { importedContents.release(file.newAssetId) }
    }
}
