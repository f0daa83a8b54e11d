import CVips
import PhotoModel

/// Reads image metadata through libvips without decoding pixels.
public struct ImageMetadataReader: Sendable {
    /// Images whose header declares more pixels than this are refused before any decode.
    public var maximumPixels: Int

    public init(maximumPixels: Int = 200_000_000) {
        self.maximumPixels = maximumPixels
    }

    /// Reads the header and metadata of the image at `path`; pixels are never decoded.
    ///
    /// Blocking file I/O: call it off the event loop. Safe to call from several threads at once.
    /// Starts libvips (``VipsRuntime/start()``) if nothing has yet.
    public func readMetadata(atPath path: String) throws(ImagingError) -> ImageMetadata {
        try VipsRuntime.start()
        // libvips reads a trailing "[...]" as load options ("a.jpg[shrink=2]" would open a.jpg).
        guard !path.hasSuffix("]") else {
            throw .unreadable(path: path, reason: "libvips cannot open a path ending in \"]\"; rename the file")
        }
        return try readMetadata(named: path) { cvips_image_new_from_file(path) }
    }

    /// Reads the header and metadata of an image file read into memory; `path` names it in errors.
    public func readMetadata(of file: EncodedBuffer, atPath path: String) throws(ImagingError) -> ImageMetadata {
        try VipsRuntime.start()
        return try withExtendedLifetime(file) { () throws(ImagingError) in
            try readMetadata(named: path) { cvips_image_new_from_buffer(file.bytes.baseAddress, file.count, "") }
        }
    }

    private func readMetadata(
        named path: String,
        opening open: () -> UnsafeMutablePointer<VipsImage>?
    ) throws(ImagingError) -> ImageMetadata {
        let image = try VipsRuntime.withErrorBuffer { () throws(ImagingError) in
            guard let image = open() else {
                throw .unreadable(path: path, reason: VipsRuntime.takeErrorMessage())
            }
            return image
        }
        defer { g_object_unref(image) }
        let header = VipsHeader(image: image)

        let width = Int(vips_image_get_width(image))
        let height = Int(vips_image_get_height(image))
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumPixels else {
            throw .tooLarge(path: path, width: width, height: height, limit: maximumPixels)
        }

        // A file in memory is read by the buffer variant of its loader ("jpegload_buffer").
        let loader = (header.string(VIPS_META_LOADER) ?? "an unknown loader").replacing(/_buffer$/, with: "")
        guard let mimeType = Self.mimeType(loader: loader, heifCompression: header.string("heif-compression")) else {
            throw .unreadable(path: path, reason: "libvips read it with \(loader), which is not a photo format")
        }
        // HEIF loading applies the rotation itself and drops the field, so only libvips' own value counts.
        let orientation = header.int(VIPS_META_ORIENTATION).flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
        let exif = header.blob(VIPS_META_EXIF_NAME).flatMap(ExifBlock.init)

        var metadata = ImageMetadata(
            format: loader,
            mimeType: mimeType,
            storedWidth: width,
            storedHeight: height,
            orientation: orientation,
            dateTimeOriginal: exif?.dateTimeOriginal,
            gpsTimestamp: exif?.gpsTimestamp,
            location: exif?.location,
            camera: exif?.camera ?? CameraData()
        )
        // The XMP packet (hundreds of KB in an editor's export) is searched only when EXIF gives no date to prefer.
        if metadata.dateTimeOriginal == nil {
            metadata.xmpCreateDate = header.blob(VIPS_META_XMP_NAME).flatMap(XMPCaptureDate.read)
        }
        metadata.pageCount = max(1, header.int("n-pages") ?? 1)
        metadata.customRendered = exif?.integer(0xA401, in: .exif)
        metadata.burstIdentifier = exif?.burstIdentifier
        return metadata
    }

    /// The MIME type of the photo formats the library accepts, by libvips loader name.
    static func mimeType(loader: String, heifCompression: String?) -> String? {
        switch loader {
        case "jpegload": "image/jpeg"
        case "pngload": "image/png"
        case "heifload": heifCompression == "av1" ? "image/avif" : "image/heic"
        case "webpload": "image/webp"
        case "tiffload": "image/tiff"
        case "gifload": "image/gif"
        default: nil
        }
    }
}
