import Imaging
import PhotoModel
import PhotolibProtocol

/// A `RequestImage` call, checked: PhotoKit's `PHImageRequestOptions` plus the asset and target size.
package struct ImageRequest: Sendable, Hashable {
    package typealias ContentMode = ImageContentMode
    package typealias ResizeMode = ImageResizeMode

    var assetId: String
    /// Nil means the maximum size: the whole image.
    var targetSize: PixelSize?
    var contentMode: ContentMode
    var resizeMode: ResizeMode
    package var delivery = ImageDelivery.finalOnly
    /// Used with the exact resize mode only, as PhotoKit does.
    var crop: NormalizedRect?
    /// Which version of an edited asset.
    var version: ImageVersion = .current

    package init(
        assetId: String, targetSize: PixelSize?, contentMode: ContentMode, resizeMode: ResizeMode,
        delivery: ImageDelivery = .finalOnly, crop: NormalizedRect? = nil, version: ImageVersion = .current
    ) {
        self.assetId = assetId
        self.targetSize = targetSize
        self.contentMode = contentMode
        self.resizeMode = resizeMode
        self.delivery = delivery
        self.crop = crop
        self.version = version
    }

    /// The sizes the cache keeps for the fast resize mode, by shorter side.
    static let ladder = [128, 256, 512, 1024, 2048]
    /// The rung a grid of thumbnails asks for, made after an import.
    static let gridRung = 256

    /// The rendition that answers the request, for an image displayed at `displayedSize` (nil when unknown).
    func finalRendition(displayedSize: PixelSize?) -> PlannedRendition {
        guard let target = targetSize, resizeMode != .none else { return .original }
        let box: RenditionSize = contentMode == .aspectFit ? .fit(target) : .fill(target)
        let exact = PlannedRendition(spec: RenditionSpec(size: box, crop: resizeMode == .exact ? crop : nil))
        guard resizeMode == .fast, let displayedSize, displayedSize.width > 0, displayedSize.height > 0 else {
            return exact
        }
        let needed = RenditionSpec(size: box).outputSize(forUpright: displayedSize)
        let neededShortSide = min(needed.width, needed.height)
        if let rung = Self.ladder.first(where: { $0 >= neededShortSide }) {
            return .rung(rung)
        }
        return neededShortSide <= min(displayedSize.width, displayedSize.height) ? .original : exact
    }
}

/// How a request's images are delivered: PhotoKit's delivery modes over a call that takes one reply or several,
/// decided here and nowhere else (clients send the mode they were given).
package enum ImageDelivery: Sendable, Hashable {
    /// A degraded image first when one is at hand, then the final one: the opportunistic mode, streamed.
    case degradedThenFinal
    /// One image, at once: a degraded one when at hand (the final one is then made in the background), else the
    /// final one. The fast mode.
    case firstAtHand
    /// The final image only: the high-quality mode, or the opportunistic one in a single reply.
    case finalOnly
    /// The final image only, a RAW file's made from its sensor data rather than its embedded preview.
    case finalFromSensorData

    /// The delivery of a call in `mode` (opportunistic when absent) that takes several replies when `streams`.
    package init(_ mode: ImageDeliveryMode?, streams: Bool) {
        switch mode ?? .opportunistic {
        case .opportunistic: self = streams ? .degradedThenFinal : .finalOnly
        case .fast: self = .firstAtHand
        case .highQuality: self = .finalFromSensorData
        }
    }

    /// Whether the reply with a degraded image is followed by another, with the final one.
    package var continuesAfterDegraded: Bool { self == .degradedThenFinal }
}

/// A rendition the image manager makes and caches: how to make it, and its name in the cache.
struct PlannedRendition: Sendable, Hashable {
    var spec: RenditionSpec
    /// Made from a RAW file's sensor data, never from its embedded preview (a high-quality request).
    var decodesSensorData = false

    /// The image's own size.
    static let original = PlannedRendition(spec: RenditionSpec(size: .original))

    /// A size of the ladder: the shorter side has `side` pixels.
    static func rung(_ side: Int) -> PlannedRendition {
        PlannedRendition(spec: RenditionSpec(size: .shortSide(side)))
    }

    /// The cache's name for it: "original", "short-256", "fit-640x480", "fill-300x300-crop-0.25,0,0.5,0.5".
    var variant: String {
        let size =
            switch spec.size {
            case .original: "original"
            case .shortSide(let side): "short-\(side)"
            case .fit(let box): "fit-\(box)"
            case .fill(let box): "fill-\(box)"
            }
        let decoded = decodesSensorData ? "-decoded" : ""
        guard let crop = spec.crop else { return size + decoded }
        return "\(size)-crop-\(crop.x),\(crop.y),\(crop.width),\(crop.height)" + decoded
    }

    /// The variant under which a file's embedded thumbnail is cached, as a degraded image.
    static let embeddedVariant = "embedded"
}
