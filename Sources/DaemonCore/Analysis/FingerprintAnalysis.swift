import LibraryStore
import Logging
import PhotoModel
import PhotolibProtocol
import Synchronization

/// Stores the fingerprints first renditions made, and makes those of the image assets still without one (from
/// before duplicates, or whose grid rendition was made before they were), from their cached grid renditions where
/// the cache has them; the store groups the duplicates around each (CONTRACT §17).
package final class FingerprintAnalysis: AnalysisStep {
    /// Fingerprints made per transaction, when they must be made here: each may decode an original.
    static let batchSize = 32

    private let database: LibraryDatabase
    private let images: ImageManager
    private let logger: Logger
    private let analysed = Atomic<Int>(0)

    package init(database: LibraryDatabase, images: ImageManager, logger: Logger) {
        self.database = database
        self.images = images
        self.logger = logger
    }

    package func analyseNextBatch() async throws -> Int {
        var made = images.fingerprints.takeAll()
        let fresh = Set(made.map(\.assetId))
        for assetId in try await database.assetsAwaitingFingerprints(limit: Self.batchSize)
        where !fresh.contains(assetId) {
            do {
                made.append((assetId, try await images.fingerprintOfOriginal(assetId)))
            } catch let error as ImageError {
                // An unreadable or missing original gets none, until its content changes.
                logger.debug("no fingerprint made", metadata: ["asset": "\(assetId)", "error": "\(error)"])
                made.append((assetId, nil))
            } catch is CancellationError where !Task.isCancelled {
                // Its rendition was called off (the asset went, or the daemon stops): it waits for the next batch.
                continue
            }
        }
        guard !made.isEmpty else { return 0 }
        try await database.recordFingerprints(made)
        analysed.add(made.count, ordering: .relaxed)
        return made.count
    }

    /// Of the image assets that waited since the daemon started, how many have their fingerprint.
    package func progress() async throws -> AnalysisProgress {
        let done = analysed.load(ordering: .relaxed)
        return AnalysisProgress(done: done, total: done + (try await database.countAssetsAwaitingFingerprints()))
    }

    package func report(_ progress: AnalysisProgress, in status: inout AnalysisStatus) {
        status.fingerprints = progress
    }
}
