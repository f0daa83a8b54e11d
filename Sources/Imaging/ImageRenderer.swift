import CVips
import Glibc
import PhotoModel

/// Makes images of photos with libvips: upright, resized with shrink-on-load, in sRGB, without metadata.
///
/// Every method blocks while it decodes: call them off the event loops. They are safe to call from several
/// threads at once, and start libvips (``VipsRuntime/start()``) if nothing has yet.
public struct ImageRenderer: Sendable {
    /// Images whose header declares more pixels than this are refused before any decode, and no image
    /// with more pixels than this is made.
    public var maximumPixels: Int
    /// The JPEG quality of opaque images, 1...100.
    public var jpegQuality: Int

    public init(maximumPixels: Int = 200_000_000, jpegQuality: Int = 85) {
        self.maximumPixels = maximumPixels
        self.jpegQuality = jpegQuality
    }

    /// Makes `spec` of the image file at `path`: a JPEG, or a PNG when the image has alpha. `fingerprinting` also
    /// gives the rendition's perceptual fingerprint (``RenderedImage/fingerprint``), from the pixels it decoded.
    public func render(
        imageAt path: String, as spec: RenditionSpec, fingerprinting: Bool = false
    ) throws(ImagingError) -> RenderedImage {
        try render(.file(path), as: spec, text: nil, fingerprinting: fingerprinting)
    }

    /// Makes `spec` of an encoded image held in memory (a video's poster frame); `name` names it in errors.
    public func render(
        encodedImage: [UInt8], named name: String,
        as spec: RenditionSpec
    ) throws(ImagingError) -> RenderedImage {
        try render(.memory(EncodedBuffer(encodedImage), name: name), as: spec, text: nil)
    }

    /// Makes `spec` of an image file read into memory; `name` (its path) names it in errors. `fingerprinting` as
    /// for a file.
    public func render(
        encodedImage: EncodedBuffer, named name: String,
        as spec: RenditionSpec, fingerprinting: Bool = false
    ) throws(ImagingError) -> RenderedImage {
        try render(.memory(encodedImage, name: name), as: spec, text: nil, fingerprinting: fingerprinting)
    }

    /// The perceptual fingerprint of the image file at `path`, an upright picture such as a cached rendition; nil
    /// when it is smaller than 8×8 or has no structure.
    public func fingerprint(ofImageAt path: String) throws(ImagingError) -> ImageFingerprint? {
        try VipsRuntime.start()
        let probed = try ProbedImage(.file(path), maximumPixels: maximumPixels)
        return try PerceptualFingerprint.of(try inSRGB(probed.handle, name: path), name: path)
    }

    /// Makes `spec` of the image file at `path` as a PNG whose only metadata are the `text` chunks.
    public func renderPNG(
        imageAt path: String, as spec: RenditionSpec,
        text: [PNGTextChunk]
    ) throws(ImagingError) -> RenderedImage {
        try render(.file(path), as: spec, text: text)
    }

    /// The image file at `path`, at its own size, encoded as `format` (an image with alpha is laid on white for
    /// JPEG). For renditions, which are upright already and carry no orientation.
    public func convert(imageAt path: String, to format: ImageFileFormat) throws(ImagingError) -> RenderedImage {
        try VipsRuntime.start()
        let probed = try ProbedImage(.file(path), maximumPixels: maximumPixels)
        return try encode(try inSRGB(probed.handle, name: path), name: path, text: nil, as: format)
    }

    /// The thumbnail the camera embedded in the file (EXIF's in a JPEG, the thumbnail item of a HEIF),
    /// upright and without the black bars some cameras pad it with; nil when the file has none.
    public func embeddedThumbnail(ofImageAt path: String) throws(ImagingError) -> RenderedImage? {
        try VipsRuntime.start()
        let main = try ProbedImage(.file(path), maximumPixels: maximumPixels)
        switch main.loader {
        case "jpegload":
            guard let blob = main.handle.header.blob("jpeg-thumbnail-data") else { return nil }
            let buffer = EncodedBuffer(blob)
            defer { withExtendedLifetime(buffer) {} }
            guard let thumbnail = try? ProbedImage(.memory(buffer, name: path), maximumPixels: maximumPixels),
                thumbnail.loader == "jpegload_buffer"
            else { return nil }
            let framed = try thumbnail.handle.cropped(toAspectOf: main.storedSize, for: path)
            let turned = try framed.applying(for: path) { cvips_copy($0, $1) }
            vips_image_set_int(turned.pointer, "orientation", Int32(main.orientation))
            return try encode(try turned.applying(for: path) { cvips_autorot($0, $1) }, name: path, text: nil)
        case "heifload":
            // libheif turns both the image and its thumbnail upright; without a thumbnail, this opens the image.
            let thumbnail = try ProbedImage(.file(path), options: "thumbnail", maximumPixels: maximumPixels)
            guard thumbnail.storedSize != main.storedSize else { return nil }
            return try encode(try inSRGB(thumbnail.handle, name: path), name: path, text: nil)
        default:
            return nil
        }
    }

    private func render(
        _ source: ImageSource, as spec: RenditionSpec,
        text: [PNGTextChunk]?, fingerprinting: Bool = false
    ) throws(ImagingError) -> RenderedImage {
        try VipsRuntime.start()
        // Buffer loaders read the bytes in place as long as an image made from them lives.
        defer { withExtendedLifetime(source) {} }
        let probed = try ProbedImage(source, maximumPixels: maximumPixels)
        // Never larger than the image, which the probe kept within the pixel limit.
        let output = spec.outputSize(forUpright: probed.uprightSize)
        let resized: VipsImageHandle
        if let crop = spec.crop {
            resized = try cropAndScale(probed, to: crop, size: output)
        } else {
            resized = try probed.thumbnail(size: output)
        }
        let made = try inSRGB(resized, name: source.name)
        guard fingerprinting else { return try encode(made, name: source.name, text: text) }
        return try PerceptualFingerprint.encoding(made, name: source.name) { image throws(ImagingError) in
            try encode(image, name: source.name, text: text)
        }
    }

    /// The `crop` of the upright image at `size`: shrunk on load as far as the crop allows, then cut and scaled.
    private func cropAndScale(
        _ probed: ProbedImage, to crop: NormalizedRect,
        size: PixelSize
    ) throws(ImagingError) -> VipsImageHandle {
        let upright = probed.uprightSize
        let cropWidth = Double(upright.width) * crop.width, cropHeight = Double(upright.height) * crop.height
        let scale = min(1, max(Double(size.width) / cropWidth, Double(size.height) / cropHeight))
        let whole = PixelSize(
            width: max(1, Int((Double(upright.width) * scale).rounded())),
            height: max(1, Int((Double(upright.height) * scale).rounded())))
        let shrunk = try probed.thumbnail(size: whole)
        let pixels = Self.pixelArea(of: crop, in: whole)
        let area = try shrunk.applying(for: probed.source.name) { input, output in
            cvips_extract_area(
                input, output, Int32(pixels.left), Int32(pixels.top), Int32(pixels.width), Int32(pixels.height))
        }
        return try area.applying(for: probed.source.name) { input, output in
            cvips_thumbnail_image(input, output, Int32(size.width), Int32(size.height))
        }
    }

    /// The image as 8-bit sRGB, or 8-bit grey for a one-colour image, alpha kept.
    func inSRGB(_ image: VipsImageHandle, name: String) throws(ImagingError) -> VipsImageHandle {
        let interpretation = vips_image_get_interpretation(image.pointer)
        let isEightBit = vips_image_get_format(image.pointer) == VIPS_FORMAT_UCHAR
        let isGrey = interpretation == VIPS_INTERPRETATION_B_W || interpretation == VIPS_INTERPRETATION_GREY16
        if isEightBit && (interpretation == VIPS_INTERPRETATION_sRGB || interpretation == VIPS_INTERPRETATION_B_W) {
            return image
        }
        let space = isGrey ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB
        return try image.applying(for: name) { input, output in cvips_colourspace(input, output, space) }
    }

    /// Encodes a copy of the image from which every metadata field was removed: as `requested` when given, else
    /// a PNG carrying only `text` when given, else a PNG if the image has alpha and a JPEG if not.
    ///
    /// libvips 8.14's `strip` is not enough: its WebP writer ignores it, and a field left on the image is
    /// written by whichever saver knows it. So the copy keeps none, and savers strip as well.
    func encode(
        _ image: VipsImageHandle, name: String, text: [PNGTextChunk]?, as requested: ImageFileFormat? = nil,
        quality: Int? = nil
    ) throws(ImagingError) -> RenderedImage {
        var clean = try image.applying(for: name) { cvips_copy($0, $1) }
        let hasAlpha = vips_image_hasalpha(clean.pointer) != 0
        let format: ImageFileFormat = requested ?? (text != nil || hasAlpha ? .png : .jpeg)
        if format == .jpeg, hasAlpha { clean = try clean.applying(for: name) { cvips_flatten_white($0, $1) } }
        clean.removeMetadata()
        for (index, chunk) in (text ?? []).enumerated() {
            vips_image_set_string(clean.pointer, "png-comment-\(index)-\(chunk.keyword)", chunk.text)
        }
        var data: UnsafeMutableRawPointer?
        var length = 0
        let status =
            switch format {
            case .jpeg: cvips_jpegsave_buffer(clean.pointer, &data, &length, Int32(quality ?? jpegQuality))
            case .png: cvips_pngsave_buffer(clean.pointer, &data, &length, text == nil ? 1 : 0)
            }
        defer { g_free(data) }
        guard status == 0, let data else {
            throw .renderFailed(path: name, reason: VipsRuntime.takeFailureMessage())
        }
        return RenderedImage(
            data: Array(UnsafeRawBufferPointer(start: data, count: length)), size: clean.size,
            format: format)
    }
}

/// Where an image's encoded bytes are: a file, or memory.
enum ImageSource {
    case file(String)
    case memory(EncodedBuffer, name: String)

    var name: String {
        switch self {
        case .file(let path): path
        case .memory(_, let name): name
        }
    }
}

/// An image opened lazily (header only) and checked: a photo format, and no more pixels than the limit.
struct ProbedImage {
    let source: ImageSource
    let handle: VipsImageHandle
    let loader: String
    let storedSize: PixelSize
    /// EXIF orientation, 1...8: how to turn the stored pixels upright.
    let orientation: Int
    let hasColourProfile: Bool
    /// libvips load options for the file, such as "unlimited".
    let options: String

    init(_ source: ImageSource, options: String = "", maximumPixels: Int) throws(ImagingError) {
        let handle = try VipsRuntime.withErrorBuffer { () throws(ImagingError) in
            let image =
                switch source {
                // A bracketed option string always ends the name, so brackets in the file name are never read as
                // options.
                case .file(let path): cvips_image_new_from_file("\(path)[\(options)]")
                case .memory(let buffer, _):
                    cvips_image_new_from_buffer(buffer.bytes.baseAddress, buffer.count, options)
                }
            guard let image else { throw .unreadable(path: source.name, reason: VipsRuntime.takeErrorMessage()) }
            return VipsImageHandle(image)
        }
        let loader = handle.header.string(VIPS_META_LOADER) ?? "an unknown loader"
        let loaderFamily = loader.hasSuffix("_buffer") ? String(loader.dropLast("_buffer".count)) : loader
        guard ImageMetadataReader.mimeType(loader: loaderFamily, heifCompression: nil) != nil else {
            throw .unreadable(path: source.name, reason: "libvips read it with \(loader), which is not a photo format")
        }
        let size = handle.size
        guard let pixelCount = size.pixelCount, pixelCount <= maximumPixels else {
            throw .tooLarge(path: source.name, width: size.width, height: size.height, limit: maximumPixels)
        }
        self.source = source
        self.handle = handle
        self.loader = loader
        self.storedSize = size
        self.orientation = Int(vips_image_get_orientation(handle.pointer))
        self.hasColourProfile = vips_image_get_typeof(handle.pointer, VIPS_META_ICC_NAME) != 0
        // JPEG decoding otherwise gives up after 100 libjpeg warnings, losing damaged but readable photos.
        self.options = loader == "jpegload" ? "unlimited" : options
    }

    /// The size once turned upright: orientations 5...8 are quarter turns.
    var uprightSize: PixelSize {
        (5...8).contains(orientation) ? PixelSize(width: storedSize.height, height: storedSize.width) : storedSize
    }

    /// The upright image at exactly `size`, shrunk on load, converted to sRGB from its embedded profile if it has one.
    func thumbnail(size: PixelSize) throws(ImagingError) -> VipsImageHandle {
        let profile = hasColourProfile ? "srgb" : nil
        return try VipsImageHandle.make(for: source.name) { output in
            switch source {
            case .file(let path):
                cvips_thumbnail("\(path)[\(options)]", output, Int32(size.width), Int32(size.height), profile)
            case .memory(let buffer, _):
                cvips_thumbnail_buffer(
                    buffer.bytes.baseAddress, buffer.count, output, Int32(size.width),
                    Int32(size.height), profile)
            }
        }
    }
}

extension VipsImageHandle {
    /// Removes every metadata field a saver could write (EXIF, XMP, IPTC, ICC, comments...).
    func removeMetadata() {
        guard let fields = vips_image_get_fields(pointer) else { return }
        defer { g_strfreev(fields) }
        var index = 0
        while let field = fields[index] {
            // The sequential-access hint is not metadata: savers read it to pull pixels in order.
            if String(cString: field) != VIPS_META_SEQUENTIAL {
                vips_image_remove(pointer, field)
            }
            index += 1
        }
    }

    /// This image cut to the aspect ratio of `reference`, evenly on both sides, when they differ by more than 2%.
    func cropped(toAspectOf reference: PixelSize, for path: String) throws(ImagingError) -> VipsImageHandle {
        let current = size
        let aspect = Double(reference.width) / Double(reference.height)
        let currentAspect = Double(current.width) / Double(current.height)
        guard abs(currentAspect - aspect) / aspect > 0.02 else { return self }
        let width = min(current.width, max(1, Int((Double(current.height) * aspect).rounded())))
        let height = min(current.height, max(1, Int((Double(current.width) / aspect).rounded())))
        let left = (current.width - width) / 2, top = (current.height - height) / 2
        return try applying(for: path) { input, output in
            cvips_extract_area(input, output, Int32(left), Int32(top), Int32(width), Int32(height))
        }
    }
}
