import CVips

/// Images held in memory, encoded again: what a program's `UIImage.jpegData`/`pngData` stand-in gives.
extension ImageRenderer {
    /// The image in `encodedImage`, at its own size, encoded as `format` without metadata (an image with alpha is
    /// laid on white for JPEG) at `quality` (JPEG, 1...100; the renderer's by default). `upright` turns it by its
    /// EXIF orientation first; otherwise the pixels stay as stored. `name` names it in errors.
    public func encode(encodedImage: EncodedBuffer, named name: String, as format: ImageFileFormat, quality: Int? = nil,
                       upright: Bool = true) throws(ImagingError) -> RenderedImage {
        try VipsRuntime.start()
        defer { withExtendedLifetime(encodedImage) {} }
        let probed = try ProbedImage(.memory(encodedImage, name: name), maximumPixels: maximumPixels)
        let image = try upright ? probed.thumbnail(size: probed.uprightSize) : probed.handle
        return try encode(try inSRGB(image, name: name), name: name, text: nil, as: format, quality: quality)
    }
}
