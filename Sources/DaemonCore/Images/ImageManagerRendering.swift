import Foundation
import Imaging
import LibraryStore
import NIOPosix
import PhotoModel
import Synchronization
import ThumbnailCache

/// Making images: an asset's source, its renditions made once and cached, and stand-ins while they are made.
extension ImageManager {
    func source(of assetId: String) async throws -> AssetImageSource {
        if let known = memo.source(of: assetId) {
            return known
        }
        let generation = memo.generation
        guard let asset = try await assets([assetId]).first else { throw ImageError.notFound(assetId: assetId) }
        let source = try AssetImageSource(
            asset, edit: asset.hasAdjustments ? try await database.edit(of: assetId) : nil)
        memo.remember(source, readAt: generation)
        return source
    }

    /// The sources of the `assets` that have images, with their edits.
    func sources(of assets: [Asset]) async throws -> [AssetImageSource] {
        var sources: [AssetImageSource] = []
        for asset in assets {
            let edit = asset.hasAdjustments ? try await database.edit(of: asset.id) : nil
            if let source = try? AssetImageSource(asset, edit: edit) { sources.append(source) }
        }
        return sources
    }

    /// The assets among `ids` that exist, with their resources, hidden and trashed ones included.
    func assets(_ ids: [String]) async throws -> [Asset] {
        try await database.fetchAssets(
            AssetQuery(ids: ids, includeHidden: true, includeTrashed: true, includeAllBurstAssets: true),
            pageSize: ids.count, includeResources: true
        ).assets
    }

    /// Makes and caches `plan`, or joins the run already making it.
    func render(
        _ plan: PlannedRendition, of source: AssetImageSource, version: String?,
        priority: RenderPriority
    ) async throws -> CachedRendition {
        let version = try version ?? source.requireVersion()
        let key = source.renditionKey(plan.variant)
        return try await mappingRenderErrors(of: source.assetId) {
            try await queue.value(for: key, priority: priority, work: renderWork(plan, of: source, version: version))
        }
    }

    /// The blocking work of making `plan` from the file (from `contents`, a photo's bytes, when given) and keeping
    /// it in the cache; a photo's perceptual fingerprint goes to `fingerprinted`, when given, made from the same
    /// pixels.
    func renderWork(
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
        of source: AssetImageSource, version: String?, finalKey: RenditionKey,
        plan: PlannedRendition
    ) async throws -> CachedRendition? {
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

    /// Turns the errors of making an image into `ImageError`s a client can act on.
    func mappingRenderErrors<Result>(
        of assetId: String,
        _ body: () async throws -> Result
    ) async throws -> Result {
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
