import CVips
import ImageFingerprinting
import PhotoModel

/// Hands an image's grey levels to `PerceptualHash` for its perceptual fingerprint (CONTRACT §17).
enum PerceptualFingerprint {
    /// The fingerprint of an upright image; nil when it is smaller than 8×8 or has no structure.
    static func of(_ image: VipsImageHandle, name: String) throws(ImagingError) -> ImageFingerprint? {
        guard image.size.width >= PerceptualHash.minimumSide, image.size.height >= PerceptualHash.minimumSide else {
            return nil
        }
        var grey = image
        if vips_image_hasalpha(grey.pointer) != 0 {
            grey = try grey.applying(for: name) { cvips_flatten_white($0, $1) }
        }
        grey = try grey.applying(for: name) { cvips_colourspace($0, $1, VIPS_INTERPRETATION_B_W) }
        grey = try grey.applying(for: name) { cvips_cast_uchar($0, $1) }
        let size = grey.size
        var length = 0
        guard vips_image_get_bands(grey.pointer) == 1, let memory = vips_image_write_to_memory(grey.pointer, &length),
            length == size.width * size.height
        else {
            throw .renderFailed(path: name, reason: VipsRuntime.takeFailureMessage())
        }
        defer { g_free(memory) }
        return PerceptualHash.fingerprint(
            ofGrey: UnsafeRawBufferPointer(start: memory, count: length), width: size.width, height: size.height)
    }
}
