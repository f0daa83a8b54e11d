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
    private let sources: AssetImageSources
    private let maker: RenditionMaker
    private let fresh: FreshFingerprints
    private let logger: Logger
    private let analysed = Atomic<Int>(0)

    /// Stores the fingerprints `fresh` collects from first renditions, and makes the others with `maker`.
    package init(
        database: LibraryDatabase, sources: AssetImageSources, maker: RenditionMaker, fresh: FreshFingerprints,
        logger: Logger
    ) {
        self.database = database
        self.sources = sources
        self.maker = maker
        self.fresh = fresh
        self.logger = logger
    }

    package func analyseNextBatch() async throws -> Int {
        var made = fresh.takeAll()
        let madeFresh = Set(made.map(\.assetId))
        for assetId in try await database.duplicates.assetsAwaitingFingerprints(limit: Self.batchSize)
        where !madeFresh.contains(assetId) {
            do {
                made.append((assetId, try await fingerprintOfOriginal(assetId)))
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
        try await database.duplicates.recordFingerprints(made)
        analysed.add(made.count, ordering: .relaxed)
        return made.count
    }

    /// The perceptual fingerprint of the asset's original (nil for a video, or a picture without one): from its
    /// cached grid rendition, else made with that rendition, which the cache then keeps.
    private func fingerprintOfOriginal(_ assetId: String) async throws -> ImageFingerprint? {
        let asset = try await sources.source(of: assetId)
        let original = asset.selecting(asset.edit == nil ? .current : .original)
        guard case .photo = original.kind else { return nil }
        let made = Mutex<ImageFingerprint??>(nil)
        let rendition = try await maker.gridRendition(of: original, priority: .idle) { fingerprint in
            made.withLock { $0 = .some(fingerprint) }
        }
        // A run another request had started made the rendition without it: read it from the file.
        if let fingerprint = made.withLock({ $0 }) { return fingerprint }
        return try await maker.fingerprint(ofRenditionAt: rendition.path, assetId: assetId)
    }

    /// Of the image assets that waited since the daemon started, how many have their fingerprint.
    package func progress() async throws -> AnalysisProgress {
        let done = analysed.load(ordering: .relaxed)
        return AnalysisProgress(
            done: done, total: done + (try await database.duplicates.countAssetsAwaitingFingerprints()))
    }

    package func report(_ progress: AnalysisProgress, in status: inout AnalysisStatus) {
        status.fingerprints = progress
    }
}
