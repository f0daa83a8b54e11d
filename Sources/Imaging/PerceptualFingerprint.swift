import CVips
import ImageFingerprinting
import PhotoModel

/// Hands an image's pixels to `PerceptualHash` for its perceptual fingerprint (CONTRACT §17).
enum PerceptualFingerprint {
    /// The fingerprint of an upright image; nil when it is smaller than 8×8 or has no structure.
    static func of(_ image: VipsImageHandle, name: String) throws(ImagingError) -> ImageFingerprint? {
        guard image.size.width >= PerceptualHash.minimumSide, image.size.height >= PerceptualHash.minimumSide else {
            return nil
        }
        var flat = image
        if vips_image_hasalpha(flat.pointer) != 0 {
            flat = try flat.applying(for: name) { cvips_flatten_white($0, $1) }
            flat = try flat.applying(for: name) { cvips_cast_uchar($0, $1) }
        }
        // The rendition is 8-bit sRGB or grey already; its luma is taken here rather than through libvips'
        // colourspace pipeline, which goes through floating-point XYZ and costs more than all the rest.
        let size = flat.size, bands = Int(vips_image_get_bands(flat.pointer))
        // The rendition's pixels where they lie (decoded into memory once, for the rendition and this), not copied.
        guard vips_image_get_format(flat.pointer) == VIPS_FORMAT_UCHAR, bands == 1 || bands == 3,
            let pixels = vips_image_get_data(flat.pointer)
        else {
            throw .renderFailed(path: name, reason: "no 8-bit grey or sRGB pixels to fingerprint")
        }
        return withExtendedLifetime(flat) {
            PerceptualHash.fingerprint(
                ofPixels: UnsafeRawBufferPointer(start: pixels, count: size.width * size.height * bands),
                width: size.width, height: size.height, bands: bands)
        }
    }
}
