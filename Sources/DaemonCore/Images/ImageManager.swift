import Imaging
import LibraryStore
import PhotoModel
import PhotolibProtocol
import ThumbnailCache

/// An image delivered to a client: a rendition file and whether it is a stand-in for the one asked for.
package struct DeliveredImage: Sendable, Hashable {
    package var rendition: CachedRendition
    package var isDegraded: Bool
}

/// PHImageManager and PHCachingImageManager for the daemon: the policy of image requests. It decides which
/// rendition answers a request, whether a stand-in goes first, what an edit starts from and what a warm-up queues;
/// `RenditionMaker` makes and caches the images, `AssetImageSources` says what they are made from.
package final class ImageManager: Sendable {
    private let database: LibraryDatabase
    private let sources: AssetImageSources
    private let maker: RenditionMaker

    package init(database: LibraryDatabase, sources: AssetImageSources, maker: RenditionMaker) {
        self.database = database
        self.sources = sources
        self.maker = maker
    }

    // MARK: Requests

    /// Delivers the image `request` asks for through `deliver`, as its `delivery` says.
    package func requestImage(_ request: ImageRequest, deliver: (DeliveredImage) async throws -> Void) async throws {
        let source = try await sources.source(of: request.assetId).selecting(request.version)
        let version = source.currentVersion()
        var plan = request.finalRendition(displayedSize: source.displayedSize)
        // A RAW's preview answers thumbnails; a high-quality request gets the sensor data decoded.
        plan.decodesSensorData = request.delivery == .finalFromSensorData && source.file.isRAW
        let key = source.renditionKey(plan.variant)
        if let cached = maker.cached(key, version: version) {
            try await deliver(DeliveredImage(rendition: cached, isDegraded: false))
            return
        }
        switch request.delivery {
        case .degradedThenFinal:
            async let final = maker.render(plan, of: source, version: version, priority: .interactive)
            if let degraded = try await maker.degradedImage(of: source, version: version, finalKey: key, plan: plan) {
                try await deliver(DeliveredImage(rendition: degraded, isDegraded: true))
            }
            try await deliver(DeliveredImage(rendition: try await final, isDegraded: false))
        case .firstAtHand:
            if let degraded = try await maker.degradedImage(of: source, version: version, finalKey: key, plan: plan) {
                if let version { maker.prefetch(plan, of: source, version: version) }
                try await deliver(DeliveredImage(rendition: degraded, isDegraded: true))
            } else {
                try await deliver(
                    DeliveredImage(
                        rendition: try await maker.render(
                            plan, of: source, version: version,
                            priority: .interactive), isDegraded: false))
            }
        case .finalOnly, .finalFromSensorData:
            let final = try await maker.render(plan, of: source, version: version, priority: .interactive)
            try await deliver(DeliveredImage(rendition: final, isDegraded: false))
        }
    }

    /// The asset's file of `version`, for `RequestImageData`: the edit's rendered file for `current` when there
    /// is one, else the original.
    package func file(of assetId: String, version: ImageVersion) async throws -> AssetImageSource.File {
        let source = try await sources.source(of: assetId).selecting(version)
        _ = try source.requireVersion()
        return source.file
    }

    /// What an edit of the photo starts from: the original and the adjustment when the caller can resume the
    /// asset's edit (its format is among `formats`), else the current version.
    package func contentEditingInput(of assetId: String, canHandle formats: [AdjustmentFormat]) async throws
        -> ContentEditingInput
    {
        let source = try await sources.source(of: assetId)
        guard case .photo = source.kind else {
            throw ImageError.unavailable(assetId: assetId, reason: "only photos can be edited")
        }
        let adjustment = source.edit == nil ? nil : try await database.edits.edit(of: assetId)?.draft.adjustment
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
        for source in try await sources.sources(of: assetIds).map({ $0.selecting(.current) }).reversed() {
            let request = ImageRequest(
                assetId: source.assetId, targetSize: targetSize, contentMode: contentMode,
                resizeMode: .fast)
            let plan = request.finalRendition(displayedSize: source.displayedSize)
            guard let version = source.currentVersion(),
                maker.cached(source.renditionKey(plan.variant), version: version) == nil
            else { continue }
            maker.prefetch(plan, of: source, version: version)
        }
    }

    /// Drops the queued warm-ups of `assetIds` (all when nil) that no request waits for.
    package func stopCaching(_ assetIds: [String]?) {
        let assets = assetIds.map(Set.init)
        maker.dropQueued { key in assets?.contains(key.assetId) ?? true }
    }
}
