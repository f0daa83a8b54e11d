import Foundation
import Imaging
import NIOPosix
import PhotoModel
import Synchronization
import ThumbnailCache

/// Following the library: renditions dropped and made as assets change, freedesktop.org thumbnails, the cache's
/// budget and bookkeeping.
extension ImageManager {
    /// Drops the queued runs and cached renditions of removed assets, and the renditions of assets whose content
    /// changed.
    func dropRenditions(ofRemoved removed: [String], ofChanged changed: [String]) async {
        if !removed.isEmpty {
            let removedIds = Set(removed)
            queue.dropQueued { removedIds.contains($0.assetId) }
        }
        guard !removed.isEmpty || !changed.isEmpty else { return }
        try? await fileWork.runIfActive { [cache] in
            removed.forEach(cache.forgetAsset)
            changed.forEach(cache.removeRenditions(ofAsset:))
        }
    }

    /// Makes the asset's grid rendition at `priority` (from `contents`, the bytes an import read of an unedited photo,
    /// when given), then its freedesktop.org thumbnails if it is referenced in place and they are configured. A photo
    /// just imported is what a grid shows next: a prefetch, on the render thread the clients leave; other warm-ups are
    /// idle runs, made while no client waits for an image.
    func makeGridRendition(of assetId: String, from contents: EncodedBuffer? = nil, priority: RenderPriority = .idle)
        async throws
    {
        let asset = try await source(of: assetId)
        // The bytes are the original's: an edited asset's grid image is made from its edit's file.
        let contents = asset.edit == nil ? contents : nil
        let source = asset.selecting(.current)
        // The fingerprint is the original's: an edited asset's comes from the background analysis.
        var fingerprinted: (@Sendable (ImageFingerprint?) -> Void)?
        if asset.edit == nil {
            fingerprinted = { @Sendable [fingerprints] fingerprint in fingerprints.add(fingerprint, ofAsset: assetId) }
        }
        let rendition = try await gridRendition(
            of: source, priority: priority, contents: contents, fingerprinted: fingerprinted)
        // The original's thumbnail shows the current version, as every other image of the asset does.
        guard let freedesktop = freedesktopThumbnails.withLock({ $0 }), !asset.path.hasPrefix(originalsDirectory),
            let displayed = source.displayedSize,
            !freedesktop.isCurrent(forFileAt: asset.path, madeFrom: rendition.path)
        else { return }
        _ = try await queue.value(for: RenditionKey(assetId: assetId, variant: "freedesktop"), priority: .idle) {
            try freedesktop.write(forFileAt: asset.path, displayedSize: displayed, from: rendition.path)
            return rendition
        }
    }

    /// The perceptual fingerprint of the asset's original (nil for a video, or a picture without one): from its
    /// cached grid rendition, else made with that rendition, which the cache then keeps.
    func fingerprintOfOriginal(_ assetId: String) async throws -> ImageFingerprint? {
        let asset = try await source(of: assetId)
        let original = asset.selecting(asset.edit == nil ? .current : .original)
        guard case .photo = original.kind else { return nil }
        let made = Mutex<ImageFingerprint??>(nil)
        let rendition = try await gridRendition(of: original, priority: .idle) { fingerprint in
            made.withLock { $0 = .some(fingerprint) }
        }
        // A run another request had started made the rendition without it: read it from the file.
        if let fingerprint = made.withLock({ $0 }) { return fingerprint }
        return try await mappingRenderErrors(of: assetId) {
            try await fileWork.runIfActive { [renderer] in try renderer.fingerprint(ofImageAt: rendition.path) }
        }
    }

    /// The grid rendition of `source` from the cache, else made at `priority` (from `contents`, a photo's bytes, when
    /// given), a photo's fingerprint then going to `fingerprinted`.
    private func gridRendition(
        of source: AssetImageSource, priority: RenderPriority, contents: EncodedBuffer? = nil,
        fingerprinted: (@Sendable (ImageFingerprint?) -> Void)?
    ) async throws -> CachedRendition {
        let version = try source.requireVersion()
        let plan = PlannedRendition.rung(ImageRequest.gridRung)
        let key = source.renditionKey(plan.variant)
        if let cached = cache.rendition(for: key, sourceVersion: version) { return cached }
        return try await mappingRenderErrors(of: source.assetId) {
            try await queue.value(
                for: key, priority: priority,
                work: renderWork(plan, of: source, version: version, contents: contents, fingerprinted: fingerprinted))
        }
    }

    /// Whether freedesktop.org thumbnails of referenced files are written.
    var writesFreedesktopThumbnails: Bool { freedesktopThumbnails.withLock { $0 != nil } }

    /// Removes the freedesktop.org thumbnails of files that left `paths`.
    func removeFreedesktopThumbnails(forFilesAt paths: [String]) async {
        guard let freedesktop = freedesktopThumbnails.withLock({ $0 }) else { return }
        try? await fileWork.runIfActive { paths.forEach(freedesktop.remove(forFileAt:)) }
    }

    /// Applies a reloaded configuration's cache budget and freedesktop.org thumbnail folder; returns whether
    /// freedesktop.org thumbnails are now written where they were not.
    package func apply(cacheByteLimit: Int, freedesktopDirectory: String?) -> Bool {
        if cacheByteLimit != cache.byteLimit { cache.setByteLimit(cacheByteLimit) }
        return freedesktopThumbnails.withLock { current in
            guard current?.directory != freedesktopDirectory else { return false }
            current = freedesktopDirectory.map { FreedesktopThumbnails(directory: $0, renderer: renderer) }
            return freedesktopDirectory != nil
        }
    }

    /// Records rendition use in the cache's index every `interval` until cancelled.
    func saveCacheUsage(every interval: Duration) async {
        while (try? await Task.sleep(for: interval)) != nil {
            try? await fileWork.runIfActive { [cache] in cache.saveUsage() }
        }
    }

    /// Deletes what a crash left in the cache directory before `date`. Blocking.
    func removeOrphanedRenditions(olderThan date: Date) {
        cache.removeOrphanedFiles(olderThan: date)
    }

    /// Stops the render threads and records rendition use. Blocking.
    func shutDown() {
        queue.stop()
        cache.saveUsage()
    }
}
