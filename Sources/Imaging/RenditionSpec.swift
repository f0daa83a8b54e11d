import PhotoModel

/// A width and height in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The number of pixels, or nil when it does not fit in an `Int`.
    public var pixelCount: Int? {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? nil : count
    }

    public var description: String { "\(width)x\(height)" }
}

/// The size a rendition has, relative to the upright image (or to its crop).
public enum RenditionSize: Sendable, Hashable {
    /// The image's own size.
    case original
    /// Scaled so that the shorter side has this many pixels.
    case shortSide(Int)
    /// The largest size that fits inside the box, aspect ratio kept (PhotoKit's aspectFit).
    case fit(PixelSize)
    /// The smallest size that covers the box, aspect ratio kept, nothing cut off (PhotoKit's aspectFill).
    case fill(PixelSize)
}

/// What to make of an image: its size and the part of it to show. A rendition is never larger than the image it
/// comes from: a larger size gives the image's own (a crop may be enlarged up to it), as PhotoKit does.
public struct RenditionSpec: Sendable, Hashable {
    public var size: RenditionSize
    /// The part of the upright image to show; nil for all of it.
    public var crop: NormalizedRect?

    public init(size: RenditionSize, crop: NormalizedRect? = nil) {
        self.size = size
        self.crop = crop
    }

    /// The rendition's size for an upright image of `source` pixels (each at least 1), from 1×1 up to the
    /// source's own width and height.
    public func outputSize(forUpright source: PixelSize) -> PixelSize {
        let (cropWidth, cropHeight) = (crop?.width ?? 1, crop?.height ?? 1)
        let width = Double(source.width) * cropWidth
        let height = Double(source.height) * cropHeight
        let scale: Double = switch size {
        case .original: 1
        case .shortSide(let side): Double(side) / min(width, height)
        case .fit(let box): min(Double(box.width) / width, Double(box.height) / height)
        case .fill(let box): max(Double(box.width) / width, Double(box.height) / height)
        }
        let largest = min(scale, 1 / cropWidth, 1 / cropHeight)
        return PixelSize(width: Self.pixels(width * largest), height: Self.pixels(height * largest))
    }

    /// The long side the whole upright image needs, at the least, for this rendition of an image of `source`
    /// pixels: the output's size over the share of the image it shows. For an image of unknown size, enough for
    /// any image up to twice as long as it is wide.
    public func sourceLongSide(forUpright source: PixelSize?) -> Int {
        guard let source else {
            let side = switch size {
            case .original: Int.max
            case .shortSide(let side): 2 * side
            case .fit(let box): max(box.width, box.height)
            case .fill(let box): 2 * max(box.width, box.height)
            }
            guard side != .max else { return .max }
            return Int((Double(side) / min(crop?.width ?? 1, crop?.height ?? 1)).rounded(.up))
        }
        let output = outputSize(forUpright: source)
        let scale = max(Double(output.width) / (Double(source.width) * (crop?.width ?? 1)),
                        Double(output.height) / (Double(source.height) * (crop?.height ?? 1)))
        return Int((scale * Double(max(source.width, source.height))).rounded(.up))
    }

    /// A side length rounded to whole pixels, at least 1.
    private static func pixels(_ length: Double) -> Int {
        guard !length.isNaN else { return 1 }
        return Int(max(length.rounded(), 1))
    }
}
