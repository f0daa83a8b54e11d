import Foundation
import Imaging
import LibraryStore
import Logging
import NIOCore
import NIOPosix
import PhotoModel
import PhotolibConfig
import PhotolibProtocol
import Synchronization
import ThumbnailCache

/// An image delivered to a client: a rendition file and whether it is a stand-in for the one asked for.
struct DeliveredImage: Sendable, Hashable {
    var rendition: CachedRendition
    var isDegraded: Bool
}

/// PHImageManager and PHCachingImageManager for the daemon: answers image requests from the rendition cache
/// and makes what is missing on the render queue, where identical requests share one decode. `RenditionUpkeep`
/// tells it what the library's changes mean for the cache.
final class ImageManager: Sendable {
    private let database: LibraryDatabase
    private let cache: RenditionCache
    private let renderer: ImageRenderer
    private let rawReader: RawImageReader
    private let posterFrames: PosterFrameReader
    private let queue: RenderQueue<RenditionKey, CachedRendition>
    /// Also writes freedesktop.org thumbnails of the files outside the library's store, when set.
    private let freedesktopThumbnails: Mutex<FreedesktopThumbnails?>
    /// Files below it belong to the library; others are referenced in place.
    private let originalsDirectory: String
    private let fileWork: NIOThreadPool
    private let memo: AssetSourceMemo
    private let logger: Logger

    init(database: LibraryDatabase, cache: RenditionCache, renderer: ImageRenderer, rawReader: RawImageReader,
         posterFrames: PosterFrameReader, renderThreads: Int, freedesktopDirectory: String?, originalsDirectory: String,
         fileWork: NIOThreadPool, logger: Logger) {
        self.database = database
        self.cache = cache
        self.renderer = renderer
        self.rawReader = rawReader
        self.posterFrames = posterFrames
        self.queue = RenderQueue(threadCount: renderThreads, backgroundThreadLimit: max(1, renderThreads - 1))
        freedesktopThumbnails = Mutex(freedesktopDirectory.map { FreedesktopThumbnails(directory: $0, renderer: renderer) })
        self.originalsDirectory = originalsDirectory.hasSuffix("/") ? originalsDirectory : originalsDirectory + "/"
        self.fileWork = fileWork
        self.memo = AssetSourceMemo(feed: database.feed)
        self.logger = logger
    }

    /// The image manager the configuration describes: its cache budget, pixel limit and freedesktop.org option,
    /// with one render thread a core, each image computed by one libvips thread.
    convenience init(configuration: DaemonConfiguration, database: LibraryDatabase, rawReader: RawImageReader,
                     originalsDirectory: String, logger: Logger) throws {
        let renderer = ImageRenderer(maximumPixels: configuration.maximumImagePixels)
        VipsRuntime.setThreadsPerImage(1)
        self.init(
            database: database,
            cache: try RenditionCache(directory: configuration.cachePath, byteLimit: configuration.cacheByteLimit,
                                      logger: logger),
            renderer: renderer, rawReader: rawReader, posterFrames: PosterFrameReader(), renderThreads: System.coreCount,
            freedesktopDirectory: configuration.freedesktopThumbnailDirectory, originalsDirectory: originalsDirectory,
            fileWork: .singleton, logger: logger)
    }

    // MARK: Requests

    /// Delivers the image `request` asks for through `deliver`: one final image, or with `streams` (the call's
    /// `more`) and the opportunistic mode a degraded image first when one is at hand. The fast mode delivers one
    /// image, degraded if that is what is at hand, and makes the final one in the background.
    func requestImage(_ request: ImageRequest, streams: Bool,
                      deliver: (DeliveredImage) async throws -> Void) async throws {
        let source = try await source(of: request.assetId).selecting(request.version)
        let version = source.currentVersion()
        var plan = request.finalRendition(displayedSize: source.displayedSize)
        // A RAW's preview answers thumbnails; a high-quality request gets the sensor data decoded.
        plan.decodesSensorData = request.deliveryMode == .highQuality && source.file.isRAW
        let key = source.renditionKey(plan.variant)
        if let cached = cache.rendition(for: key, sourceVersion: version) {
            try await deliver(DeliveredImage(rendition: cached, isDegraded: false))
            return
        }
        switch request.deliveryMode {
        case .opportunistic where streams:
            async let final = render(plan, of: source, version: version, priority: .interactive)
            if let degraded = try await degradedImage(of: source, version: version, finalKey: key, plan: plan) {
                try await deliver(DeliveredImage(rendition: degraded, isDegraded: true))
            }
            try await deliver(DeliveredImage(rendition: try await final, isDegraded: false))
        case .fast:
            if let degraded = try await degradedImage(of: source, version: version, finalKey: key, plan: plan) {
                if let version {
                    queue.enqueue(key, priority: .prefetch, work: renderWork(plan, of: source, version: version))
                }
                try await deliver(DeliveredImage(rendition: degraded, isDegraded: true))
            } else {
                try await deliver(DeliveredImage(rendition: try await render(plan, of: source, version: version,
                                                                              priority: .interactive), isDegraded: false))
            }
        case .opportunistic, .highQuality:
            let final = try await render(plan, of: source, version: version, priority: .interactive)
            try await deliver(DeliveredImage(rendition: final, isDegraded: false))
        }
    }

    /// The asset's file of `version`, for `RequestImageData`: the edit's rendered file for `current` when there
    /// is one, else the original.
    func file(of assetId: String, version: ImageVersion) async throws -> AssetImageSource.File {
        let source = try await source(of: assetId).selecting(version)
        _ = try source.requireVersion()
        return source.file
    }

    /// What an edit of the photo starts from: the original and the adjustment when the caller can resume the
    /// asset's edit (its format is among `formats`), else the current version.
    func contentEditingInput(of assetId: String, canHandle formats: [AdjustmentFormat]) async throws -> ContentEditingInput {
        let source = try await source(of: assetId)
        guard case .photo = source.kind else {
            throw ImageError.unavailable(assetId: assetId, reason: "only photos can be edited")
        }
        let adjustment = source.edit == nil ? nil : try await database.edit(of: assetId)?.draft.adjustment
        let resumed = adjustment.flatMap { adjustment in
            formats.contains { $0.formatIdentifier == adjustment.formatIdentifier && $0.formatVersion == adjustment.formatVersion }
                ? adjustment : nil
        }
        // An adjustment applies to the pixels it was made on: the photo, never the RAW of a pair.
        let base = source.selecting(resumed == nil ? .current : .unadjusted)
        _ = try base.requireVersion()
        return ContentEditingInput(fullSizeImagePath: base.path, mimeType: base.file.mimeType, mediaType: .image,
                                   orientation: base.file.orientation,
                                   adjustment: resumed, baseVersion: resumed == nil ? .current : .original,
                                   currentAdjustment: adjustment)
    }

    /// Queues the renditions `fast` requests for `targetSize` would use, for the assets that lack them.
    func startCaching(_ assetIds: [String], targetSize: PixelSize, contentMode: ImageRequest.ContentMode) async throws {
        for source in try await sources(of: assets(assetIds)).map({ $0.selecting(.current) }) {
            let request = ImageRequest(assetId: source.assetId, targetSize: targetSize, contentMode: contentMode,
                                       resizeMode: .fast, deliveryMode: .highQuality)
            let plan = request.finalRendition(displayedSize: source.displayedSize)
            let key = source.renditionKey(plan.variant)
            guard let version = source.currentVersion(), cache.rendition(for: key, sourceVersion: version) == nil else {
                continue
            }
            queue.enqueue(key, priority: .prefetch, work: renderWork(plan, of: source, version: version))
        }
    }

    /// Drops the queued warm-ups of `assetIds` (all when nil) that no request waits for.
    func stopCaching(_ assetIds: [String]?) {
        let assets = assetIds.map(Set.init)
        queue.dropQueued { key in assets?.contains(key.assetId) ?? true }
    }

    // MARK: Making images

    func source(of assetId: String) async throws -> AssetImageSource {
        if let known = memo.source(of: assetId) {
            return known
        }
        let generation = memo.generation
        guard let asset = try await assets([assetId]).first else { throw ImageError.notFound(assetId: assetId) }
        let source = try AssetImageSource(asset, edit: asset.hasAdjustments ? try await database.edit(of: assetId) : nil)
        memo.remember(source, readAt: generation)
        return source
    }

    /// The sources of the `assets` that have images, with their edits.
    private func sources(of assets: [Asset]) async throws -> [AssetImageSource] {
        var sources: [AssetImageSource] = []
        for asset in assets {
            let edit = asset.hasAdjustments ? try await database.edit(of: asset.id) : nil
            if let source = try? AssetImageSource(asset, edit: edit) { sources.append(source) }
        }
        return sources
    }

    /// The assets among `ids` that exist, with their resources, hidden and trashed ones included.
    private func assets(_ ids: [String]) async throws -> [Asset] {
        try await database.fetchAssets(
            AssetQuery(ids: ids, includeHidden: true, includeTrashed: true, includeAllBurstAssets: true),
            pageSize: ids.count, includeResources: true
        ).assets
    }

    /// Makes and caches `plan`, or joins the run already making it.
    private func render(_ plan: PlannedRendition, of source: AssetImageSource, version: String?,
                        priority: RenderPriority) async throws -> CachedRendition {
        let version = try version ?? source.requireVersion()
        let key = source.renditionKey(plan.variant)
        return try await mappingRenderErrors(of: source.assetId) {
            try await queue.value(for: key, priority: priority, work: renderWork(plan, of: source, version: version))
        }
    }

    /// The blocking work of making `plan` from the file (from `contents`, a photo's bytes, when given) and keeping
    /// it in the cache.
    private func renderWork(_ plan: PlannedRendition, of source: AssetImageSource, version: String,
                            contents: EncodedBuffer? = nil) -> @Sendable () throws -> CachedRendition {
        { [renderer, rawReader, posterFrames, cache] in
            let image = switch source.kind {
            case .photo where source.file.isRAW:
                // The embedded preview when it is big enough for the rendition, else a decode (half size when that is).
                try rawReader.withUprightImage(ofFileAt: source.path,
                                               minimumLongSide: plan.spec.sourceLongSide(forUpright: source.displayedSize),
                                               allowsPreview: !plan.decodesSensorData) { image throws(ImagingError) in
                    try renderer.render(imageAt: image, as: plan.spec)
                }
            case .photo:
                if let contents {
                    try renderer.render(encodedImage: contents, named: source.path, as: plan.spec)
                } else {
                    try renderer.render(imageAt: source.path, as: plan.spec)
                }
            case .video(let duration):
                try renderer.render(
                    encodedImage: try posterFrames.posterFrame(ofVideoAt: source.path, duration: duration),
                    named: source.path, as: plan.spec)
            }
            let key = source.renditionKey(plan.variant)
            return try cache.store(RenditionImage(image), for: key, sourceVersion: version)
        }
    }

    /// The long side up to which a RAW file's embedded preview usually serves a rendition (cameras write
    /// previews of 1,600 pixels and more).
    static let rawPreviewSide = 1_536

    /// A stand-in at hand for the final image: the cached rendition of the asset closest below it in size (else the
    /// smallest above), else the thumbnail embedded in the file; nil when there is none.
    private func degradedImage(of source: AssetImageSource, version: String?, finalKey: RenditionKey,
                               plan: PlannedRendition) async throws -> CachedRendition? {
        guard let version else { return nil }
        let finalPixels = source.displayedSize.flatMap { plan.spec.outputSize(forUpright: $0).pixelCount } ?? .max
        let candidates = cache.renditions(ofAsset: source.assetId, sourceVersion: version)
            .filter { $0.key != finalKey }
            .sorted { $0.width * $0.height < $1.width * $1.height }
        let below = candidates.last { $0.width * $0.height < finalPixels }
        for candidate in [below, candidates.first].compactMap({ $0 }) {
            if let checked = cache.rendition(for: candidate.key, sourceVersion: version) { return checked }
        }
        guard case .photo = source.kind else { return nil }
        // A RAW's preview makes a small final image as fast as it would make the stand-in: reading it twice is slower.
        if source.file.isRAW, plan.spec.sourceLongSide(forUpright: source.displayedSize) <= Self.rawPreviewSide { return nil }
        let key = source.renditionKey(PlannedRendition.embeddedVariant)
        do {
            return try await queue.value(for: key, priority: .degraded) { [renderer, rawReader, cache] in
                let embedded = if source.file.isRAW {
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

    /// Turns the errors of making an image into `ImageError`s a client can act on.
    private func mappingRenderErrors<Result>(of assetId: String,
                                             _ body: () async throws -> Result) async throws -> Result {
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

    // MARK: Following the library

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

    /// Makes the asset's grid rendition at idle priority (from `contents`, the bytes an import read of an unedited
    /// photo, when given), then its freedesktop.org thumbnails if it is referenced in place and they are configured.
    func makeGridRendition(of assetId: String, from contents: EncodedBuffer? = nil) async throws {
        let asset = try await source(of: assetId)
        // The bytes are the original's: an edited asset's grid image is made from its edit's file.
        let contents = asset.edit == nil ? contents : nil
        let source = asset.selecting(.current)
        let version = try source.requireVersion()
        let plan = PlannedRendition.rung(ImageRequest.gridRung)
        let key = source.renditionKey(plan.variant)
        let rendition: CachedRendition
        if let cached = cache.rendition(for: key, sourceVersion: version) {
            rendition = cached
        } else {
            rendition = try await mappingRenderErrors(of: assetId) {
                try await queue.value(for: key, priority: .idle,
                                      work: renderWork(plan, of: source, version: version, contents: contents))
            }
        }
        // The original's thumbnail shows the current version, as every other image of the asset does.
        guard let freedesktop = freedesktopThumbnails.withLock({ $0 }), !asset.path.hasPrefix(originalsDirectory),
              let displayed = source.displayedSize, !freedesktop.isCurrent(forFileAt: asset.path, madeFrom: rendition.path)
        else { return }
        _ = try await queue.value(for: RenditionKey(assetId: assetId, variant: "freedesktop"), priority: .idle) {
            try freedesktop.write(forFileAt: asset.path, displayedSize: displayed, from: rendition.path)
            return rendition
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
    func apply(cacheByteLimit: Int, freedesktopDirectory: String?) -> Bool {
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

/// The file carries no thumbnail of its own.
private struct NoEmbeddedThumbnail: Error {}

extension RenditionImage {
    init(_ image: RenderedImage) {
        self.init(data: image.data, width: image.size.width, height: image.size.height,
                  mimeType: image.format.mimeType, fileExtension: image.format.fileExtension)
    }
}
