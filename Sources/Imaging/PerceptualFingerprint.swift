import CVips
import ImageFingerprinting
import PhotoModel

/// Hands an upright image's pixels to `PerceptualHash` for its perceptual fingerprint (CONTRACT §17): images of 8-bit
/// grey or sRGB, with or without alpha; any other gets none.
enum PerceptualFingerprint {
    /// The fingerprint of an image read whole (a cached rendition); nil when it is smaller than 8×8, has no structure
    /// or is not 8-bit.
    static func of(_ image: VipsImageHandle, name: String) throws(ImagingError) -> ImageFingerprint? {
        guard let layout = PixelLayout(image) else { return nil }
        guard let pixels = vips_image_get_data(image.pointer) else {
            throw .renderFailed(path: name, reason: VipsRuntime.takeFailureMessage())
        }
        return withExtendedLifetime(image) {
            layout.fingerprint(of: UnsafeRawBufferPointer(start: pixels, count: layout.byteCount))
        }
    }

    /// What `encode` makes of `image`, with the fingerprint of the pixels it read as it encoded them: the image is
    /// computed once, for both (its pixels copied aside as the encoder pulls them), never decoded again or held in
    /// memory before the encoding.
    static func encoding(
        _ image: VipsImageHandle, name: String,
        with encode: (VipsImageHandle) throws(ImagingError) -> RenderedImage
    ) throws(ImagingError) -> RenderedImage {
        guard let layout = PixelLayout(image) else { return try encode(image) }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.byteCount, alignment: 1)
        defer { copy.deallocate() }
        copy.initializeMemory(as: UInt8.self, repeating: 0)
        guard let tapped = cvips_tapped(image.pointer, copy.baseAddress) else {
            throw .renderFailed(path: name, reason: VipsRuntime.takeFailureMessage())
        }
        var rendition = try encode(VipsImageHandle(tapped))
        rendition.fingerprint = layout.fingerprint(of: UnsafeRawBufferPointer(copy))
        return rendition
    }

    /// An image's size and bands, when they are ones `PerceptualHash` reads.
    private struct PixelLayout {
        let width: Int, height: Int, bands: Int
        var byteCount: Int { width * height * bands }

        init?(_ image: VipsImageHandle) {
            (width, height, bands) = (image.size.width, image.size.height, Int(vips_image_get_bands(image.pointer)))
            guard vips_image_get_format(image.pointer) == VIPS_FORMAT_UCHAR, (1...4).contains(bands) else { return nil }
        }

        func fingerprint(of pixels: UnsafeRawBufferPointer) -> ImageFingerprint? {
            PerceptualHash.fingerprint(ofPixels: pixels, width: width, height: height, bands: bands)
        }
    }
}
