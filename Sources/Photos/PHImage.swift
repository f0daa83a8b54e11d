import Foundation
import Imaging
import PhotoLibrary

/// The stand-in for `UIImage`/`NSImage`: an encoded image (JPEG, PNG, HEIC, …) held in memory or in one of the
/// daemon's files, `size` in pixels as displayed.
public final class PHImage: NSObject, Sendable {

    /// UIKit's `UIImage.Orientation`, with its raw values: how the stored pixels are shown.
    public enum Orientation: Int, Sendable, Hashable {
        case up = 0
        case down = 1
        case left = 2
        case right = 3
        case upMirrored = 4
        case downMirrored = 5
        case leftMirrored = 6
        case rightMirrored = 7

        /// The orientation an EXIF orientation (1...8) stands for.
        public init(exifOrientation: Int) {
            self =
                switch exifOrientation {
                case 2: .upMirrored
                case 3: .down
                case 4: .downMirrored
                case 5: .leftMirrored
                case 6: .right
                case 7: .rightMirrored
                case 8: .left
                default: .up
                }
        }
    }

    /// Width and height in pixels, as displayed (the orientation applied).
    public let size: CGSize
    /// Pixels per point, always 1 here.
    public let scale: CGFloat = 1
    public let imageOrientation: Orientation
    /// The file the image is in: a rendition or original of the daemon's (which this process may not be able to
    /// open: `data()` reads it through the socket then), or the file it was read from; nil for an image made
    /// from bytes.
    public let fileURL: URL?
    public let mimeType: String
    private let bytes: Data?
    private let transfers: FileTransfers?

    private init(
        size: CGSize, orientation: Orientation, fileURL: URL?, mimeType: String, bytes: Data?,
        transfers: FileTransfers?
    ) {
        self.size = size
        self.imageOrientation = orientation
        self.fileURL = fileURL
        self.mimeType = mimeType
        self.bytes = bytes
        self.transfers = transfers
    }

    /// An image the daemon made (upright, as every rendition is), read through `transfers`.
    package convenience init(_ result: ImageResult, transfers: FileTransfers) {
        self.init(
            size: CGSize(width: result.width, height: result.height), orientation: .up,
            fileURL: URL(fileURLWithPath: result.path), mimeType: result.mimeType, bytes: nil, transfers: transfers)
    }

    /// The image `data` holds; nil when the bytes are not an image the library reads.
    public convenience init?(data: Data) {
        guard let metadata = Self.metadata(of: data) else { return nil }
        self.init(
            size: CGSize(width: metadata.pixelWidth, height: metadata.pixelHeight),
            orientation: Orientation(exifOrientation: metadata.orientation), fileURL: nil,
            mimeType: metadata.mimeType, bytes: data, transfers: nil)
    }

    /// The image in the file at `path`; nil when it cannot be read or is not an image.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path), let metadata = Self.metadata(of: data) else {
            return nil
        }
        self.init(
            size: CGSize(width: metadata.pixelWidth, height: metadata.pixelHeight),
            orientation: Orientation(exifOrientation: metadata.orientation), fileURL: URL(fileURLWithPath: path),
            mimeType: metadata.mimeType, bytes: data, transfers: nil)
    }

    /// The pixels of an encoded image as stored, shown as `orientation` says (AssetsLibrary's unrotated full
    /// resolution image); nil when the bytes are not an image.
    package convenience init?(storedPixelsOf data: Data, name: String) {
        guard let metadata = Self.metadata(of: data),
            let stored = try? Self.renderer.encode(
                encodedImage: Self.buffer(data), named: name,
                as: metadata.mimeType == "image/png" ? .png : .jpeg, upright: false)
        else { return nil }
        self.init(
            size: CGSize(width: stored.size.width, height: stored.size.height),
            orientation: Orientation(exifOrientation: metadata.orientation), fileURL: nil,
            mimeType: stored.format.mimeType, bytes: Data(stored.data), transfers: nil)
    }

    /// The encoded image (JPEG, PNG, …, as `mimeType` says).
    public func data() throws -> Data {
        if let bytes { return bytes }
        guard let fileURL else { return Data() }
        do {
            return try (transfers ?? LibraryClient.shared.transfers).read(fileURL.path)
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// UIImage's `jpegData(compressionQuality:)`: the image upright, as a JPEG of quality 0...1; nil when it cannot be
    /// read or encoded.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        encoded(as: .jpeg, quality: max(1, min(100, Int((compressionQuality * 100).rounded()))))
    }

    /// UIImage's `pngData()`: the image upright, as a PNG; nil when it cannot be read or encoded.
    public func pngData() -> Data? {
        encoded(as: .png, quality: nil)
    }

    /// The image upright in `format`; the bytes as they are when they are that format already and upright.
    private func encoded(as format: ImageFileFormat, quality: Int?) -> Data? {
        guard let data = try? data() else { return nil }
        if mimeType == format.mimeType, imageOrientation == .up, format == .png || quality == nil { return data }
        let name = fileURL?.lastPathComponent ?? "image"
        guard
            let encoded = try? Self.renderer.encode(
                encodedImage: Self.buffer(data), named: name, as: format, quality: quality)
        else { return nil }
        return Data(encoded.data)
    }

    private static let renderer = ImageRenderer()

    private static func buffer(_ data: Data) -> EncodedBuffer {
        EncodedBuffer(count: data.count) { $0.copyBytes(from: data) }
    }

    private static func metadata(of data: Data) -> ImageMetadata? {
        guard !data.isEmpty else { return nil }
        return try? ImageMetadataReader().readMetadata(of: buffer(data), atPath: "image data")
    }

    public override var description: String {
        "<PHImage: \(Int(size.width))×\(Int(size.height)) \(mimeType)>"
    }
}
