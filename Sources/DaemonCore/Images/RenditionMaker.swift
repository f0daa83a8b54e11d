import Foundation
import Imaging
import Logging
import NIOCore
import NIOPosix
import PhotoModel
import PhotolibConfig
import ThumbnailCache

/// Makes renditions on the render queue, where identical requests share one decode, and keeps them in the rendition
/// cache: the image a request asks for, a stand-in at hand while it is made, an asset's grid rendition. It also keeps
/// the cache's books: renditions of changed and removed assets dropped, use recorded, a crash's leftovers swept.
package final class RenditionMaker: Sendable {
    let cache: RenditionCache
    let renderer: ImageRenderer
    private let rawReader: RawImageReader
    private let posterFrames: PosterFrameReader
    private let queue: RenderQueue<RenditionKey, CachedRendition>
    private let fileWork: NIOThreadPool

    init(
        cache: RenditionCache, renderer: ImageRenderer, rawReader: RawImageReader, posterFrames: PosterFrameReader,
        renderThreads: Int, fileWork: NIOThreadPool
    ) {
        self.cache = cache
        self.renderer = renderer
        self.rawReader = rawReader
        self.posterFrames = posterFrames
        queue = RenderQueue(threadCount: renderThreads, backgroundThreadLimit: max(1, renderThreads - 1))
        self.fileWork = fileWork
    }

    /// The maker the configuration describes: its cache budget and pixel limit, with one render thread a core, each
    /// image computed by one libvips thread.
    package convenience init(configuration: DaemonConfiguration, rawReader: RawImageReader, logger: Logger) throws {
        VipsRuntime.setThreadsPerImage(1)
        self.init(
            cache: try RenditionCache(
                directory: configuration.cachePath, byteLimit: configuration.cacheByteLimit, logger: logger),
            renderer: ImageRenderer(maximumPixels: configuration.maximumImagePixels), rawReader: rawReader,
            posterFrames: PosterFrameReader(), renderThreads: System.coreCount, fileWork: .singleton)
    }

    /// The cached rendition of `key`, if it was made from `version` of its source; of any version when `version` is
    /// nil (the file cannot be read now, as when its disk is offline: what the cache kept still shows it).
    func cached(_ key: RenditionKey, version: String?) -> CachedRendition? {
        cache.rendition(for: key, sourceVersion: version)
    }

    /// Makes and caches `plan`, or joins the run already making it.
    func render(
        _ plan: PlannedRendition, of source: AssetImageSource, version: String?, priority: RenderPriority
    ) async throws -> CachedRendition {
        let version = try version ?? source.requireVersion()
        let key = source.renditionKey(plan.variant)
        return try await Self.mappingRenderErrors(of: source.assetId) {
            try await queue.value(for: key, priority: priority, work: renderWork(plan, of: source, version: version))
        }
    }

    /// Queues `plan` as a warm-up that no one waits for.
    func prefetch(_ plan: PlannedRendition, of source: AssetImageSource, version: String) {
        queue.enqueue(
            source.renditionKey(plan.variant), priority: .prefetch, work: renderWork(plan, of: source, version: version)
        )
    }

    /// The grid rendition of `source` from the cache, else made at `priority` (from `contents`, a photo's bytes, when
    /// given), a photo's fingerprint then going to `fingerprinted`.
    func gridRendition(
        of source: AssetImageSource, priority: RenderPriority, contents: EncodedBuffer? = nil,
        fingerprinted: (@Sendable (ImageFingerprint?) -> Void)?
    ) async throws -> CachedRendition {
        let version = try source.requireVersion()
        let plan = PlannedRendition.rung(ImageRequest.gridRung)
        let key = source.renditionKey(plan.variant)
        if let cached = cached(key, version: version) { return cached }
        return try await Self.mappingRenderErrors(of: source.assetId) {
            try await queue.value(
                for: key, priority: priority,
                work: renderWork(plan, of: source, version: version, contents: contents, fingerprinted: fingerprinted))
        }
    }

    /// Runs `work` on a render thread at idle priority, as the one run of `key`.
    func runIdle(as key: RenditionKey, _ work: @escaping @Sendable () throws -> CachedRendition) async throws {
        _ = try await queue.value(for: key, priority: .idle, work: work)
    }

    /// The fingerprint of the rendition at `path`, read on the file threads.
    func fingerprint(ofRenditionAt path: String, assetId: String) async throws -> ImageFingerprint? {
        try await Self.mappingRenderErrors(of: assetId) {
            try await fileWork.runIfActive { [renderer] in try renderer.fingerprint(ofImageAt: path) }
        }
    }

    /// The blocking work of making `plan` from the file (from `contents`, a photo's bytes, when given) and keeping
    /// it in the cache; a photo's perceptual fingerprint goes to `fingerprinted`, when given, made from the same
    /// pixels.
    private func renderWork(
        _ plan: PlannedRendition, of source: AssetImageSource, version: String,
        contents: EncodedBuffer? = nil, fingerprinted: (@Sendable (ImageFingerprint?) -> Void)? = nil
    ) -> @Sendable () throws -> CachedRendition {
        { [renderer, rawReader, posterFrames, cache] in
            let image =
                switch source.kind {
                case .photo where source.file.isRAW:
                    // The embedded preview when it is big enough for the rendition, else a decode (half size when that is).
                    try rawReader.withUprightImage(
                        ofFileAt: source.path,
                        minimumLongSide: plan.spec.sourceLongSide(forUpright: source.displayedSize),
                        allowsPreview: !plan.decodesSensorData
                    ) { image throws(ImagingError) in
                        try renderer.render(imageAt: image, as: plan.spec, fingerprinting: fingerprinted != nil)
                    }
                case .photo:
                    if let contents {
                        try renderer.render(
                            encodedImage: contents, named: source.path, as: plan.spec,
                            fingerprinting: fingerprinted != nil)
                    } else {
                        try renderer.render(imageAt: source.path, as: plan.spec, fingerprinting: fingerprinted != nil)
                    }
                case .video(let duration):
                    try renderer.render(
                        encodedImage: try posterFrames.posterFrame(ofVideoAt: source.path, duration: duration),
                        named: source.path, as: plan.spec)
                }
            let key = source.renditionKey(plan.variant)
            let stored = try cache.store(RenditionImage(image), for: key, sourceVersion: version)
            if case .photo = source.kind { fingerprinted?(image.fingerprint) }
            return stored
        }
    }

    /// The long side up to which a RAW file's embedded preview usually serves a rendition (cameras write
    /// previews of 1,600 pixels and more).
    static let rawPreviewSide = 1_536

    /// A stand-in at hand for the final image: the cached rendition of the asset closest below it in size (else the
    /// smallest above), else the thumbnail embedded in the file; nil when there is none.
    func degradedImage(
        of source: AssetImageSource, version: String?, finalKey: RenditionKey, plan: PlannedRendition
    ) async throws -> CachedRendition? {
        guard let version else { return nil }
        let finalPixels = source.displayedSize.flatMap { plan.spec.outputSize(forUpright: $0).pixelCount } ?? .max
        let candidates = cache.renditions(ofAsset: source.assetId, sourceVersion: version)
            .filter { $0.key != finalKey }
            .sorted { $0.width * $0.height < $1.width * $1.height }
        let below = candidates.last { $0.width * $0.height < finalPixels }
        for candidate in [below, candidates.first].compactMap({ $0 }) {
            if let checked = cached(candidate.key, version: version) { return checked }
        }
        guard case .photo = source.kind else { return nil }
        // A RAW's preview makes a small final image as fast as it would make the stand-in: reading it twice is slower.
        if source.file.isRAW, plan.spec.sourceLongSide(forUpright: source.displayedSize) <= Self.rawPreviewSide {
            return nil
        }
        let key = source.renditionKey(PlannedRendition.embeddedVariant)
        do {
            return try await queue.value(for: key, priority: .degraded) { [renderer, rawReader, cache] in
                let embedded =
                    if source.file.isRAW {
                        try rawReader.withPreview(ofFileAt: source.path) { preview throws(ImagingError) in
                            try renderer.convert(imageAt: preview, to: .jpeg)
                        }
                    } else {
                        try renderer.embeddedThumbnail(ofImageAt: source.path)
                    }
                guard let image = embedded else { throw NoEmbeddedThumbnail() }
                return try cache.store(RenditionImage(image), for: key, sourceVersion: version)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return nil
        }
    }

    // MARK: The cache's books

    /// Drops the queued runs that `shouldDrop` picks and no request waits for.
    func dropQueued(where shouldDrop: (RenditionKey) -> Bool) {
        queue.dropQueued(where: shouldDrop)
    }

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

    /// Applies a reloaded configuration's cache budget.
    package func setCacheByteLimit(_ byteLimit: Int) {
        if byteLimit != cache.byteLimit { cache.setByteLimit(byteLimit) }
    }

    /// Records rendition use in the cache's index every `interval` until cancelled.
    func saveCacheUsage(every interval: Duration) async {
        while (try? await Task.sleep(for: interval)) != nil {
            try? await fileWork.runIfActive { [cache] in cache.saveUsage() }
        }
    }

    /// Deletes what a crash left in the cache directory before `date`.
    func removeOrphanedRenditions(olderThan date: Date) async {
        try? await fileWork.runIfActive { [cache] in cache.removeOrphanedFiles(olderThan: date) }
    }

    /// Stops the render threads and records rendition use.
    func shutDown() async throws {
        try await fileWork.runIfActive { [queue, cache] in
            queue.stop()
            cache.saveUsage()
        }
    }

    /// Turns the errors of making an image into `ImageError`s a client can act on.
    static func mappingRenderErrors<Result>(of assetId: String, _ body: () async throws -> Result) async throws
        -> Result
    {
        do {
            return try await body()
        } catch let error as ImagingError {
            throw ImageError.unavailable(assetId: assetId, reason: error.description)
        } catch RenditionCacheError.assetRemoved {
            throw ImageError.notFound(assetId: assetId)
        } catch let error as RenditionCacheError {
            throw ImageError.unavailable(assetId: assetId, reason: error.description)
        }
    }
}

/// The file carries no thumbnail of its own.
private struct NoEmbeddedThumbnail: Error {}

extension RenditionImage {
    init(_ image: RenderedImage) {
        self.init(
            data: image.data, width: image.size.width, height: image.size.height,
            mimeType: image.format.mimeType, fileExtension: image.format.fileExtension)
    }
}
