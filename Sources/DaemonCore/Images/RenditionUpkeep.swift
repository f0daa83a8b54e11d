import DequeModule
import Imaging
import LibraryStore
import Logging
import PhotoModel
import Synchronization

/// Keeps the rendition cache in step with the library: renditions go when an asset's content changes or the
/// asset leaves, and the grid-size rendition of each imported or changed asset is made once the library has
/// settled, while no client waits for an image — or, for a photo its import left for one (`ImportedPhotoContents`),
/// at once, on the render thread the clients leave, from the bytes the import read when they were kept.
package final class RenditionUpkeep: Sendable {
    private let database: LibraryDatabase
    private let sources: AssetImageSources
    private let maker: RenditionMaker
    private let freedesktop: FreedesktopThumbnailService
    /// Where the fingerprints made with originals' grid renditions go, for the background analysis to store.
    private let fingerprints: FreshFingerprints
    private let importedContents: ImportedPhotoContents
    private let logger: Logger
    /// Assets imported or changed whose grid rendition is still to make, oldest first.
    private let warmUps = Mutex(WarmUpList())
    private let warmUpSignal = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    private struct WarmUpList {
        var order: Deque<String> = []
        var members: Set<String> = []
        /// When the last asset was listed: warm-ups wait for the library to be quiet this long.
        var lastListed = ContinuousClock.now
    }

    /// How long no asset must have been added or changed before warm-ups start: an import keeps the cores.
    static let quietPeriod = Duration.seconds(1)
    package init(
        database: LibraryDatabase, sources: AssetImageSources, maker: RenditionMaker,
        freedesktop: FreedesktopThumbnailService, fingerprints: FreshFingerprints,
        importedContents: ImportedPhotoContents, logger: Logger
    ) {
        self.database = database
        self.sources = sources
        self.maker = maker
        self.freedesktop = freedesktop
        self.fingerprints = fingerprints
        self.importedContents = importedContents
        self.logger = logger
    }

    /// Follows committed changes until cancelled: drops the renditions of changed and removed assets, makes the grid
    /// rendition of each inserted one its import left for one, lists the other inserted and changed ones for one,
    /// and drops the freedesktop.org thumbnails of referenced files
    /// that moved or went (listing the moved ones' assets for new ones).
    func followLibraryChanges() async {
        let wakeUps = database.feed.subscribe()
        var seen = database.feed.generation
        for await _ in wakeUps {
            let changes: [CommittedChange]
            if let recent = database.feed.changes(after: seen) {
                changes = recent
            } else {
                do {
                    changes = try await database.history.committedChanges(after: seen, limit: 1_000_000)
                } catch {
                    logger.warning(
                        "cannot read the change log for the thumbnail cache", metadata: ["error": "\(error)"])
                    continue
                }
            }
            for change in changes {
                await apply(change)
                seen = max(seen, change.generation)
            }
        }
    }

    private func apply(_ change: CommittedChange) async {
        let assets = change.objects.filter { $0.kind == .asset }
        let removed = assets.filter { $0.change == .removed }.map(\.id)
        let changed = assets.filter { $0.change == .changed && $0.contentChanged }.map(\.id)
        await maker.dropRenditions(ofRemoved: removed, ofChanged: changed)
        let inserted = assets.filter { $0.change == .inserted }.map(\.id)
        list(inserted.filter { !makeGridRenditionFromImportedContents(of: $0) } + changed)
        if !change.referencedFilesLeft.isEmpty {
            await freedesktop.remove(forFilesAt: change.referencedFilesLeft.map(\.path))
            if freedesktop.isOn { list(change.referencedFilesLeft.compactMap(\.movedAssetId)) }
        }
    }

    /// Starts making the grid rendition of a new asset its import left for one, from the bytes it left if any.
    private func makeGridRenditionFromImportedContents(of assetId: String) -> Bool {
        guard let photo = importedContents.take(assetId) else { return false }
        Task { [importedContents, logger] in
            defer { if let contents = photo.contents { importedContents.renditionMade(from: contents) } }
            do {
                try await self.makeGridRendition(of: assetId, from: photo.contents, priority: .prefetch)
            } catch {
                logger.debug("no first rendition made", metadata: ["asset": "\(assetId)", "error": "\(error)"])
            }
        }
        return true
    }

    /// Makes the asset's grid rendition at `priority` (from `contents`, the bytes an import read of an unedited photo,
    /// when given), then its freedesktop.org thumbnails if it is referenced in place and they are configured. A photo
    /// just imported is what a grid shows next: a prefetch, on the render thread the clients leave; other warm-ups are
    /// idle runs, made while no client waits for an image.
    private func makeGridRendition(
        of assetId: String, from contents: EncodedBuffer? = nil, priority: RenderPriority = .idle
    ) async throws {
        let asset = try await sources.source(of: assetId)
        // The bytes are the original's: an edited asset's grid image is made from its edit's file.
        let contents = asset.edit == nil ? contents : nil
        let source = asset.selecting(.current)
        // The fingerprint is the original's: an edited asset's comes from the background analysis.
        var fingerprinted: (@Sendable (ImageFingerprint?) -> Void)?
        if asset.edit == nil {
            fingerprinted = { @Sendable [fingerprints] fingerprint in fingerprints.add(fingerprint, ofAsset: assetId) }
        }
        let rendition = try await maker.gridRendition(
            of: source, priority: priority, contents: contents, fingerprinted: fingerprinted)
        // The original's thumbnail shows the current version, as every other image of the asset does.
        try await freedesktop.write(
            forFileAt: asset.path, assetId: assetId, displayedSize: source.displayedSize, from: rendition)
    }

    /// Lists every asset referenced in place, for freedesktop.org thumbnails of those that have none yet (when
    /// they are turned on, or at start).
    package func listReferencedAssets() async {
        do {
            list(try await database.sourceFiles.referencedPhotoAssetIds())
        } catch {
            logger.warning(
                "cannot list the referenced files for freedesktop.org thumbnails", metadata: ["error": "\(error)"])
        }
    }

    private func list(_ listed: [String]) {
        guard !listed.isEmpty else { return }
        warmUps.withLock { list in
            for id in listed where list.members.insert(id).inserted {
                list.order.append(id)
            }
            list.lastListed = .now
        }
        warmUpSignal.continuation.yield()
    }

    /// Makes the grid rendition of each listed asset, one at a time, once the library has been quiet for
    /// ``quietPeriod``, until cancelled or finished.
    func warmUpListedAssets() async {
        for await _ in warmUpSignal.stream {
            while let assetId = warmUps.withLock({ list -> String? in
                guard let id = list.order.popFirst() else { return nil }
                list.members.remove(id)
                return id
            }) {
                do {
                    try await waitForQuietLibrary()
                    try await makeGridRendition(of: assetId)
                } catch is CancellationError {
                    return
                } catch {
                    logger.debug("no grid rendition made", metadata: ["asset": "\(assetId)", "error": "\(error)"])
                }
            }
        }
    }

    /// Ends `warmUpListedAssets`.
    func finish() {
        warmUpSignal.continuation.finish()
    }

    /// Returns once no asset has been listed for ``quietPeriod``.
    private func waitForQuietLibrary() async throws {
        while case let quiet = warmUps.withLock({ $0.lastListed }).duration(to: .now), quiet < Self.quietPeriod {
            try await Task.sleep(for: Self.quietPeriod - quiet)
        }
    }
}
