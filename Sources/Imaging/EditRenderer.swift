import CVips
import Foundation
import PhotoModel

extension ImageRenderer {
    /// The JPEG quality of rendered edits, which stand in for the original at full size.
    public static let editQuality = 92

    /// Renders a basic adjustment of the photo at `path` at full size: the crop of the upright image, then the
    /// turn, the mirror image and the exposure (in linear light). A JPEG, or a PNG when the photo has alpha.
    public func renderEdit(ofImageAt path: String, adjustment: BasicAdjustment) throws(ImagingError) -> RenderedImage {
        try VipsRuntime.start()
        let probed = try ProbedImage(.file(path), maximumPixels: maximumPixels)
        var image = try probed.thumbnail(size: probed.uprightSize)
        if let crop = adjustment.crop {
            let area = Self.pixelArea(of: crop, in: image.size)
            image = try image.applying(for: path) { input, output in
                cvips_extract_area(input, output, Int32(area.left), Int32(area.top), Int32(area.width), Int32(area.height))
            }
        }
        if adjustment.rotate != 0 {
            // A turn reads the image out of order, which a file opened for sequential reading cannot do.
            guard let decoded = cvips_copy_memory(image.pointer) else {
                throw .renderFailed(path: path, reason: VipsRuntime.takeFailureMessage())
            }
            let angle = switch adjustment.rotate {
            case 90: VIPS_ANGLE_D90
            case 180: VIPS_ANGLE_D180
            default: VIPS_ANGLE_D270
            }
            image = try VipsImageHandle(decoded).applying(for: path) { cvips_rot($0, $1, angle) }
        }
        if adjustment.flipHorizontal {
            image = try image.applying(for: path) { cvips_flip($0, $1, VIPS_DIRECTION_HORIZONTAL) }
        }
        if adjustment.exposure != 0 {
            image = try exposed(image, by: adjustment.exposure, name: path)
        }
        return try encode(try inSRGB(image, name: path), name: path, text: nil, quality: Self.editQuality)
    }

    /// The whole pixels a normalized rectangle touches, at least one, inside an image of `size`.
    static func pixelArea(of rect: NormalizedRect, in size: PixelSize) -> (left: Int, top: Int, width: Int, height: Int) {
        // Within a millionth of a pixel edge counts as on it, so 0.25 of 400 pixels is 100 and not 101.
        let left = min(size.width - 1, Int((rect.x * Double(size.width) + 1e-6).rounded(.down)))
        let top = min(size.height - 1, Int((rect.y * Double(size.height) + 1e-6).rounded(.down)))
        let right = max(left + 1, min(size.width, Int(((rect.x + rect.width) * Double(size.width) - 1e-6).rounded(.up))))
        let bottom = max(top + 1, min(size.height, Int(((rect.y + rect.height) * Double(size.height) - 1e-6).rounded(.up))))
        return (left, top, right - left, bottom - top)
    }

    /// The image `stops` brighter (darker when negative): its colours scaled in linear light, alpha untouched.
    private func exposed(_ image: VipsImageHandle, by stops: Double, name: String) throws(ImagingError) -> VipsImageHandle {
        let isGrey = [VIPS_INTERPRETATION_B_W, VIPS_INTERPRETATION_GREY16].contains(vips_image_get_interpretation(image.pointer))
        let linear = try image.applying(for: name) { input, output in
            cvips_colourspace(input, output, isGrey ? VIPS_INTERPRETATION_GREY16 : VIPS_INTERPRETATION_scRGB)
        }
        let bands = Int(vips_image_get_bands(linear.pointer))
        let colourBands = bands - (vips_image_hasalpha(linear.pointer) != 0 ? 1 : 0)
        let gain = Foundation.pow(2, stops)
        let factors = (0..<bands).map { $0 < colourBands ? gain : 1 }, offsets = [Double](repeating: 0, count: bands)
        let scaled = try linear.applying(for: name) { input, output in
            cvips_linear(input, output, factors, offsets, Int32(bands))
        }
        // Back to 8 bits, clipping what went past white.
        return try scaled.applying(for: name) { input, output in
            cvips_colourspace(input, output, isGrey ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB)
        }
    }
}
