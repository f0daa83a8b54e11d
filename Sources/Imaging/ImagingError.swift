/// Why an image's metadata could not be read, or an image of it could not be made.
public enum ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libvips could not be started; nothing can be read in this process.
    case libraryUnavailable(String)
    /// The file is not an image libvips can load (empty, truncated, another format...).
    case unreadable(path: String, reason: String)
    /// The header declares more pixels than the reader accepts (decompression-bomb guard).
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// libvips failed while decoding, resizing or encoding the image.
    case renderFailed(path: String, reason: String)
    /// No frame could be taken from the video.
    case noVideoFrame(path: String, reason: String)

    public var description: String {
        switch self {
        case .libraryUnavailable(let reason):
            "libvips is unavailable (\(reason)); check that libvips 8.14 or later (Debian: libvips42) is installed"
        case .unreadable(let path, let reason):
            "cannot read image \(path): \(reason)"
        case .tooLarge(let path, let width, let height, let limit):
            "image \(path) is \(width)x\(height) pixels, above the limit of \(limit) pixels; "
                + "raise the maximum pixel count to import it"
        case .renderFailed(let path, let reason):
            "cannot make an image of \(path): \(reason)"
        case .noVideoFrame(let path, let reason):
            "cannot take a frame from video \(path): \(reason)"
        }
    }
}
