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
package struct DeliveredImage: Sendable, Hashable {
    package var rendition: CachedRendition
    package var isDegraded: Bool
}

/// PHImageManager and PHCachingImageManager for the daemon: answers image requests from the rendition cache
/// and makes what is missing on the render queue, where identical requests share one decode. `RenditionUpkeep`
/// tells it what the library's changes mean for the cache.
package final class ImageManager: Sendable {
    let database: LibraryDatabase
    let cache: RenditionCache
    let renderer: ImageRenderer
    let rawReader: RawImageReader
    let posterFrames: PosterFrameReader
    let queue: RenderQueue<RenditionKey, CachedRendition>
    /// Also writes freedesktop.org thumbnails of the files outside the library's store, when set.
    let freedesktopThumbnails: Mutex<FreedesktopThumbnails?>
    /// Files below it belong to the library; others are referenced in place.
    let originalsDirectory: String
    let fileWork: NIOThreadPool
    let memo: AssetSourceMemo
    /// The fingerprints made with originals' grid renditions, for the background analysis to store.
    package let fingerprints = FreshFingerprints()
    private let logger: Logger

    init(
        database: LibraryDatabase, cache: RenditionCache, renderer: ImageRenderer, rawReader: RawImageReader,
        posterFrames: PosterFrameReader, renderThreads: Int, freedesktopDirectory: String?, originalsDirectory: String,
        fileWork: NIOThreadPool, logger: Logger
    ) {
        self.database = database
        self.cache = cache
        self.renderer = renderer
        self.rawReader = rawReader
        self.posterFrames = posterFrames
        self.queue = RenderQueue(threadCount: renderThreads, backgroundThreadLimit: max(1, renderThreads - 1))
        freedesktopThumbnails = Mutex(
            freedesktopDirectory.map { FreedesktopThumbnails(directory: $0, renderer: renderer) })
        self.originalsDirectory = originalsDirectory.hasSuffix("/") ? originalsDirectory : originalsDirectory + "/"
        self.fileWork = fileWork
        self.memo = AssetSourceMemo(feed: database.feed)
        self.logger = logger
    }

    /// The image manager the configuration describes: its cache budget, pixel limit and freedesktop.org option,
    /// with one render thread a core, each image computed by one libvips thread.
    package convenience init(
        configuration: DaemonConfiguration, database: LibraryDatabase, rawReader: RawImageReader,
        originalsDirectory: String, logger: Logger
    ) throws {
        let renderer = ImageRenderer(maximumPixels: configuration.maximumImagePixels)
        VipsRuntime.setThreadsPerImage(1)
        self.init(
            database: database,
            cache: try RenditionCache(
                directory: configuration.cachePath, byteLimit: configuration.cacheByteLimit,
                logger: logger),
            renderer: renderer, rawReader: rawReader, posterFrames: PosterFrameReader(),
            renderThreads: System.coreCount,
            freedesktopDirectory: configuration.freedesktopThumbnailDirectory, originalsDirectory: originalsDirectory,
            fileWork: .singleton, logger: logger)
    }

    // MARK: Requests

    /// Delivers the image `request` asks for through `deliver`, as its `delivery` says.
    package func requestImage(_ request: ImageRequest, deliver: (DeliveredImage) async throws -> Void) async throws {
        let source = try await source(of: request.assetId).selecting(request.version)
        let version = source.currentVersion()
        var plan = request.finalRendition(displayedSize: source.displayedSize)
        // A RAW's preview answers thumbnails; a high-quality request gets the sensor data decoded.
        plan.decodesSensorData = request.delivery == .finalFromSensorData && source.file.isRAW
        let key = source.renditionKey(plan.variant)
        if let cached = cache.rendition(for: key, sourceVersion: version) {
            try await deliver(DeliveredImage(rendition: cached, isDegraded: false))
            return
        }
        switch request.delivery {
        case .degradedThenFinal:
            async let final = render(plan, of: source, version: version, priority: .interactive)
            if let degraded = try await degradedImage(of: source, version: version, finalKey: key, plan: plan) {
                try await deliver(DeliveredImage(rendition: degraded, isDegraded: true))
            }
            try await deliver(DeliveredImage(rendition: try await final, isDegraded: false))
        case .firstAtHand:
            if let degraded = try await degradedImage(of: source, version: version, finalKey: key, plan: plan) {
                if let version {
                    queue.enqueue(key, priority: .prefetch, work: renderWork(plan, of: source, version: version))
                }
                try await deliver(DeliveredImage(rendition: degraded, isDegraded: true))
            } else {
                try await deliver(
                    DeliveredImage(
                        rendition: try await render(
                            plan, of: source, version: version,
                            priority: .interactive), isDegraded: false))
            }
        case .finalOnly, .finalFromSensorData:
            let final = try await render(plan, of: source, version: version, priority: .interactive)
            try await deliver(DeliveredImage(rendition: final, isDegraded: false))
        }
    }

    /// The asset's file of `version`, for `RequestImageData`: the edit's rendered file for `current` when there
    /// is one, else the original.
    package func file(of assetId: String, version: ImageVersion) async throws -> AssetImageSource.File {
        let source = try await source(of: assetId).selecting(version)
        _ = try source.requireVersion()
        return source.file
    }

    /// What an edit of the photo starts from: the original and the adjustment when the caller can resume the
    /// asset's edit (its format is among `formats`), else the current version.
    package func contentEditingInput(of assetId: String, canHandle formats: [AdjustmentFormat]) async throws
        -> ContentEditingInput
    {
        let source = try await source(of: assetId)
        guard case .photo = source.kind else {
            throw ImageError.unavailable(assetId: assetId, reason: "only photos can be edited")
        }
        let adjustment = source.edit == nil ? nil : try await database.edit(of: assetId)?.draft.adjustment
        let resumed = adjustment.flatMap { adjustment in
            formats.contains {
                $0.formatIdentifier == adjustment.formatIdentifier && $0.formatVersion == adjustment.formatVersion
            }
                ? adjustment : nil
        }
        // An adjustment applies to the pixels it was made on: the photo, never the RAW of a pair.
        let base = source.selecting(resumed == nil ? .current : .unadjusted)
        _ = try base.requireVersion()
        return ContentEditingInput(
            fullSizeImagePath: base.path, mimeType: base.file.mimeType, mediaType: .image,
            orientation: base.file.orientation,
            adjustment: resumed, baseVersion: resumed == nil ? .current : .original,
            currentAdjustment: adjustment)
    }

    /// Queues the renditions `fast` requests for `targetSize` would use, for the assets that lack them; queued last
    /// first, as the queue runs background work newest first, so that they are made in the order given.
    package func startCaching(_ assetIds: [String], targetSize: PixelSize, contentMode: ImageRequest.ContentMode)
        async throws
    {
        for source in try await sources(of: assets(assetIds)).map({ $0.selecting(.current) }).reversed() {
            let request = ImageRequest(
                assetId: source.assetId, targetSize: targetSize, contentMode: contentMode,
                resizeMode: .fast)
            let plan = request.finalRendition(displayedSize: source.displayedSize)
            let key = source.renditionKey(plan.variant)
            guard let version = source.currentVersion(), cache.rendition(for: key, sourceVersion: version) == nil else {
                continue
            }
            queue.enqueue(key, priority: .prefetch, work: renderWork(plan, of: source, version: version))
        }
    }

    /// Drops the queued warm-ups of `assetIds` (all when nil) that no request waits for.
    package func stopCaching(_ assetIds: [String]?) {
        let assets = assetIds.map(Set.init)
        queue.dropQueued { key in assets?.contains(key.assetId) ?? true }
    }
}
