import PhotoModel

/// An encoded image made by ``ImageRenderer``: upright, in sRGB, without metadata.
public struct RenderedImage: Sendable, Hashable {
    /// The encoded file's bytes.
    public var data: [UInt8]
    public var size: PixelSize
    public var format: ImageFileFormat
    /// The picture's perceptual fingerprint, when it was asked for: nil when the picture is smaller than 8×8 or has
    /// no structure (a blank frame).
    public var fingerprint: ImageFingerprint?

    public init(data: [UInt8], size: PixelSize, format: ImageFileFormat) {
        self.data = data
        self.size = size
        self.format = format
    }
}

/// The formats ``ImageRenderer`` writes: JPEG for opaque images, PNG for images with alpha.
public enum ImageFileFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png

    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        }
    }

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        }
    }
}

/// A PNG `tEXt` chunk, such as freedesktop.org's `Thumb::URI`.
public struct PNGTextChunk: Sendable, Hashable {
    public var keyword: String
    public var text: String

    public init(keyword: String, text: String) {
        self.keyword = keyword
        self.text = text
    }
}
