import CLibRaw
import CVips
import Glibc
import PhotoModel

/// A camera RAW file opened with LibRaw in this process. Only the `photolibd-raw` helper uses it, so that a
/// decoder fault on a hostile file ends the helper and not the daemon; the daemon asks `RawImageReader`.
public final class LibRawFile {
    private let raw: UnsafeMutablePointer<libraw_data_t>
    private let path: String
    private let maximumPixels: Int

    /// Opens the file and reads its header; a file whose sensor has more than `maximumPixels` pixels is refused
    /// before anything is decoded, and LibRaw's own allocations are held to what such a sensor needs.
    public init(path: String, maximumPixels: Int) throws(ImagingError) {
        guard let raw = libraw_init(0) else { throw .libraryUnavailable("LibRaw could not start") }
        self.raw = raw
        self.path = path
        self.maximumPixels = maximumPixels
        // Four 16-bit samples per pixel while decoding, and room for LibRaw's own tables.
        raw.pointee.params.max_raw_memory_mb = UInt32(min(16_384, maximumPixels * 8 / 1_048_576 + 64))
        let status = libraw_open_file(raw, path)
        // From here on a throw still runs `deinit`, which closes the handle.
        guard status == LIBRAW_SUCCESS.rawValue else {
            throw .unreadable(path: path, reason: "LibRaw: " + String(cString: libraw_strerror(status)))
        }
        let sizes = raw.pointee.sizes
        guard Int(sizes.raw_width) * Int(sizes.raw_height) <= maximumPixels else {
            throw .tooLarge(path: path, width: Int(sizes.raw_width), height: Int(sizes.raw_height), limit: maximumPixels)
        }
    }

    deinit {
        libraw_close(raw)
    }

    /// The EXIF orientation of LibRaw's `flip` (dcraw's code: 4 transposes, 2 flips vertically, 1 horizontally).
    private var orientation: Int {
        switch raw.pointee.sizes.flip {
        case 1: 2
        case 2: 4
        case 3: 3
        case 4: 5
        case 5: 8
        case 6: 6
        case 7: 7
        default: 1
        }
    }

    /// Reads the sensor data without decoding it, so that a truncated or damaged file is refused when it is
    /// imported rather than when its first image is asked for.
    public func checkSensorData() throws(ImagingError) {
        try check(libraw_unpack(raw))
    }

    public var info: RawImageInfo {
        let data = raw.pointee, sizes = data.sizes, other = data.other
        let turns = (5...8).contains(orientation)
        let width = Int(sizes.width), height = Int(sizes.height)
        var info = RawImageInfo(pixelWidth: turns ? height : width, pixelHeight: turns ? width : height,
                                orientation: orientation)
        if other.timestamp > 0 {
            // LibRaw read the camera's wall-clock time as local time; turning it back gives the same fields.
            var time = other.timestamp, fields = tm()
            localtime_r(&time, &fields)
            info.dateTimeOriginal = String(format: "%04d:%02d:%02d %02d:%02d:%02d", fields.tm_year + 1900, fields.tm_mon + 1,
                                           fields.tm_mday, fields.tm_hour, fields.tm_min, fields.tm_sec)
        }
        let gps = other.parsed_gps
        if gps.gpsparsed != 0 {
            func degrees(_ parts: (Float, Float, Float)) -> Double { Double(parts.0) + Double(parts.1) / 60 + Double(parts.2) / 3600 }
            let latitude = degrees(gps.latitude), longitude = degrees(gps.longitude)
            if latitude != 0 || longitude != 0 {
                info.latitude = gps.latref == CChar(UInt8(ascii: "S")) ? -latitude : latitude
                info.longitude = gps.longref == CChar(UInt8(ascii: "W")) ? -longitude : longitude
                if gps.altitude != 0 { info.altitude = gps.altref == 1 ? -Double(gps.altitude) : Double(gps.altitude) }
            }
        }
        var idata = data.idata, lens = data.lens
        info.camera = CameraData(
            make: Self.text(&idata.make), model: Self.text(&idata.model), lensModel: Self.text(&lens.Lens),
            fNumber: other.aperture > 0 ? Double(other.aperture) : nil, exposureTime: other.shutter > 0 ? Double(other.shutter) : nil,
            iso: other.iso_speed > 0 ? Int(other.iso_speed.rounded()) : nil, focalLength: other.focal_len > 0 ? Double(other.focal_len) : nil,
            focalLength35mm: lens.FocalLengthIn35mmFormat > 0 ? Int(lens.FocalLengthIn35mmFormat) : nil)
        if hasPreview {
            info.previewWidth = Int(data.thumbnail.twidth)
            info.previewHeight = Int(data.thumbnail.theight)
        }
        return info
    }

    /// Whether the file embeds a preview image.
    public var hasPreview: Bool {
        let thumbnail = raw.pointee.thumbnail
        return thumbnail.twidth > 0 && thumbnail.theight > 0 && thumbnail.tlength > 0
    }

    /// Writes the image, upright and encoded, through `write`: the embedded preview (a JPEG as the camera wrote it,
    /// turned when needed) when `allowsPreview` and its long side has at least `minimumLongSide` pixels, else a
    /// decode of the sensor data (at half size when that is enough) as an uncompressed TIFF.
    public func writeUprightImage(minimumLongSide: Int, allowsPreview: Bool = true,
                                  to write: (UnsafeRawBufferPointer) -> Void) throws(ImagingError) {
        let thumbnail = raw.pointee.thumbnail
        if allowsPreview, max(Int(thumbnail.twidth), Int(thumbnail.theight)) >= minimumLongSide, let preview = try? preview() {
            return preview.withUnsafeBytes(write)
        }
        try writeDecode(halfSize: max(Int(raw.pointee.sizes.width), Int(raw.pointee.sizes.height)) / 2 >= minimumLongSide,
                        to: write)
    }

    /// The embedded preview, upright: a JPEG as the camera wrote it unless it had to be turned.
    public func preview() throws(ImagingError) -> [UInt8] {
        try VipsRuntime.start()
        try check(libraw_unpack_thumb(raw))
        let image = try processed { libraw_dcraw_make_mem_thumb(raw, $0) }
        defer { libraw_dcraw_clear_mem(image) }
        let handle: VipsImageHandle
        // libvips reads an encoded image in place for as long as images made from it live.
        var encoded: EncodedBuffer?
        defer { withExtendedLifetime(encoded) {} }
        switch image.pointee.type {
        case LIBRAW_IMAGE_JPEG:
            let bytes = Array(UnsafeRawBufferPointer(start: pointer(to: image), count: Int(image.pointee.data_size)))
            if orientation == 1 { return bytes }
            let buffer = EncodedBuffer(bytes)
            encoded = buffer
            handle = try ProbedImage(.memory(buffer, name: path), maximumPixels: maximumPixels).handle
                .applying(for: path) { cvips_copy($0, $1) }
        case LIBRAW_IMAGE_BITMAP:
            handle = try bitmap(image)
        default:
            throw .unreadable(path: path, reason: "LibRaw: the preview is in an unknown format")
        }
        vips_image_set_int(handle.pointer, "orientation", Int32(orientation))
        let upright = try handle.applying(for: path) { cvips_autorot($0, $1) }
        return try ImageRenderer(maximumPixels: maximumPixels).encode(upright, name: path, text: nil, as: .jpeg, quality: 92).data
    }

    /// Decodes the sensor data (camera white balance, 8 bits) and writes it as an uncompressed TIFF, straight
    /// from LibRaw's buffer: a header, then the pixels as they are.
    private func writeDecode(halfSize: Bool, to write: (UnsafeRawBufferPointer) -> Void) throws(ImagingError) {
        raw.pointee.params.half_size = halfSize ? 1 : 0
        raw.pointee.params.use_camera_wb = 1
        raw.pointee.params.output_bps = 8
        try check(libraw_unpack(raw))
        try check(libraw_dcraw_process(raw))
        // The memory image is turned as `flip` says.
        let image = try processed { libraw_dcraw_make_mem_image(raw, $0) }
        defer { libraw_dcraw_clear_mem(image) }
        let header = try eightBitBitmapHeader(of: image)
        let tiff = Self.uncompressedTIFFHeader(width: Int(header.width), height: Int(header.height), bands: Int(header.colors))
        tiff.withUnsafeBytes(write)
        write(UnsafeRawBufferPointer(start: pointer(to: image), count: Int(header.data_size)))
    }

    /// The header of a little-endian baseline TIFF whose one strip of 8-bit pixels (RGB or grey) follows it.
    static func uncompressedTIFFHeader(width: Int, height: Int, bands: Int) -> [UInt8] {
        var bytes: [UInt8] = Array("II*\0".utf8)
        func append<Value: FixedWidthInteger>(_ value: Value) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        let entries: [(tag: UInt16, type: UInt16, value: UInt32)] = [
            (256, 4, UInt32(width)), (257, 4, UInt32(height)), (258, 3, 8), (259, 3, 1), (262, 3, bands == 3 ? 2 : 1),
            (273, 4, 0), (277, 3, UInt32(bands)), (278, 4, UInt32(height)), (279, 4, UInt32(width * height * bands)),
            (284, 3, 1),
        ]
        // BitsPerSample has a value per band; three do not fit in the entry and follow the directory.
        let directoryEnd = 8 + 2 + entries.count * 12 + 4
        let headerSize = directoryEnd + (bands == 3 ? 6 : 0)
        append(UInt32(8))
        append(UInt16(entries.count))
        for entry in entries {
            append(entry.tag)
            append(entry.type)
            append(UInt32(entry.tag == 258 ? bands : 1))
            switch entry.tag {
            case 273: append(UInt32(headerSize))
            case 258 where bands == 3: append(UInt32(directoryEnd))
            default: if entry.type == 3 { append(UInt16(entry.value)); append(UInt16(0)) } else { append(entry.value) }
            }
        }
        append(UInt32(0))
        if bands == 3 { for _ in 0..<3 { append(UInt16(8)) } }
        return bytes
    }

    /// An 8-bit RGB (or grey) bitmap LibRaw made, as a libvips image of its own.
    private func bitmap(_ image: UnsafeMutablePointer<libraw_processed_image_t>) throws(ImagingError) -> VipsImageHandle {
        let header = try eightBitBitmapHeader(of: image)
        guard let copy = vips_image_new_from_memory_copy(pointer(to: image), Int(header.data_size), Int32(header.width),
                                                         Int32(header.height), Int32(header.colors), VIPS_FORMAT_UCHAR) else {
            throw .renderFailed(path: path, reason: VipsRuntime.takeFailureMessage())
        }
        vips_image_set_int(copy, "interpretation",
                           Int32((header.colors == 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W).rawValue))
        return VipsImageHandle(copy)
    }

    /// The header of a bitmap LibRaw made, checked to be the 8-bit RGB or grey that was asked for.
    private func eightBitBitmapHeader(
        of image: UnsafeMutablePointer<libraw_processed_image_t>
    ) throws(ImagingError) -> libraw_processed_image_t {
        let header = image.pointee
        guard header.type == LIBRAW_IMAGE_BITMAP, header.bits == 8, header.colors == 1 || header.colors == 3 else {
            throw .unreadable(path: path, reason: "LibRaw made a \(header.bits)-bit image of \(header.colors) colours")
        }
        return header
    }

    private func pointer(to image: UnsafeMutablePointer<libraw_processed_image_t>) -> UnsafeRawPointer {
        UnsafeRawPointer(clibraw_image_data(image))
    }

    private func processed(
        _ make: (UnsafeMutablePointer<Int32>) -> UnsafeMutablePointer<libraw_processed_image_t>?
    ) throws(ImagingError) -> UnsafeMutablePointer<libraw_processed_image_t> {
        var status: Int32 = 0
        guard let image = make(&status) else {
            throw .unreadable(path: path, reason: "LibRaw: " + String(cString: libraw_strerror(status)))
        }
        return image
    }

    private func check(_ status: Int32) throws(ImagingError) {
        guard status == LIBRAW_SUCCESS.rawValue else {
            throw .unreadable(path: path, reason: "LibRaw: " + String(cString: libraw_strerror(status)))
        }
    }

    /// A NUL-terminated C string held in a fixed-size array; nil when empty.
    private static func text<Tuple>(_ tuple: inout Tuple) -> String? {
        let value = withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        return value.isEmpty ? nil : value
    }
}
