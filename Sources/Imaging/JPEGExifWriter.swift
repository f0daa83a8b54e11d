/// Writes an EXIF block into a JPEG: what AssetsLibrary's `writeImageData(toSavedPhotosAlbum:metadata:)` saves.
///
/// The block is built from ImageIO's property groups as strings and numbers (`{TIFF}` Make, Model, Software,
/// Orientation; `{Exif}` DateTimeOriginal, OffsetTimeOriginal; `{GPS}` Latitude, LatitudeRef, Longitude, LongitudeRef,
/// Altitude) and replaces the file's own; the image data is left as it is.
public enum JPEGExifWriter {
    /// The properties written, each as its group, tag and how it is stored.
    public struct Properties: Sendable, Hashable {
        public var make: String?
        public var model: String?
        public var software: String?
        /// EXIF orientation, 1...8.
        public var orientation: Int?
        /// `yyyy:MM:dd HH:mm:ss`.
        public var dateTimeOriginal: String?
        /// `+hh:mm`.
        public var offsetTimeOriginal: String?
        public var latitude: Double?
        public var longitude: Double?
        public var altitude: Double?

        public init(make: String? = nil, model: String? = nil, software: String? = nil, orientation: Int? = nil,
                    dateTimeOriginal: String? = nil, offsetTimeOriginal: String? = nil, latitude: Double? = nil,
                    longitude: Double? = nil, altitude: Double? = nil) {
            self.make = make
            self.model = model
            self.software = software
            self.orientation = orientation
            self.dateTimeOriginal = dateTimeOriginal
            self.offsetTimeOriginal = offsetTimeOriginal
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }

        var isEmpty: Bool { self == Properties() }
    }

    /// `jpeg` with its EXIF replaced by `properties`; nil when `jpeg` is not a JPEG.
    public static func writing(_ properties: Properties, into jpeg: [UInt8]) -> [UInt8]? {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        // Keep every segment but the EXIF APP1s, up to the start of the scan, then the rest as it is.
        var kept: [UInt8] = []
        var position = 2
        while position + 4 <= jpeg.count, jpeg[position] == 0xFF {
            let marker = jpeg[position + 1]
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            guard length >= 2, position + 2 + length <= jpeg.count else { return nil }
            let segment = jpeg[position..<position + 2 + length]
            let isExif = marker == 0xE1 && segment.dropFirst(4).starts(with: Array("Exif\0\0".utf8))
            if !isExif { kept += segment }
            position += 2 + length
        }
        let app1 = properties.isEmpty ? [] : segment(properties)
        guard app1.count <= 0xFFFF + 2 else { return nil }
        return [0xFF, 0xD8] + app1 + kept + jpeg[position...]
    }

    /// The APP1 segment of `properties`: "Exif\0\0" and a big-endian TIFF with IFD0, the Exif IFD and the GPS IFD.
    private static func segment(_ properties: Properties) -> [UInt8] {
        var primary: [Entry] = [], exif: [Entry] = [], gps: [Entry] = []
        if let make = properties.make { primary.append(.ascii(0x010F, make)) }
        if let model = properties.model { primary.append(.ascii(0x0110, model)) }
        if let orientation = properties.orientation, (1...8).contains(orientation) {
            primary.append(.short(0x0112, UInt16(orientation)))
        }
        if let software = properties.software { primary.append(.ascii(0x0131, software)) }
        if let date = properties.dateTimeOriginal { exif.append(.ascii(0x9003, date)) }
        if let offset = properties.offsetTimeOriginal { exif.append(.ascii(0x9011, offset)) }
        if let latitude = properties.latitude, let longitude = properties.longitude {
            gps.append(Entry(tag: 0x0000, type: 1, count: 4, bytes: [2, 3, 0, 0]))
            gps.append(.ascii(0x0001, latitude < 0 ? "S" : "N"))
            gps.append(.degrees(0x0002, abs(latitude)))
            gps.append(.ascii(0x0003, longitude < 0 ? "W" : "E"))
            gps.append(.degrees(0x0004, abs(longitude)))
            if let altitude = properties.altitude {
                gps.append(Entry(tag: 0x0005, type: 1, count: 1, bytes: [altitude < 0 ? 1 : 0]))
                gps.append(.rationals(0x0006, [abs(altitude)]))
            }
        }
        // IFD0 points at the others, which follow it: their offsets depend on its size.
        let pointers = (exif.isEmpty ? 0 : 1) + (gps.isEmpty ? 0 : 1)
        let primaryEnd = 8 + directorySize(primary.count + pointers, data: primary)
        let exifEnd = primaryEnd + (exif.isEmpty ? 0 : directorySize(exif.count, data: exif))
        if !exif.isEmpty { primary.append(.long(0x8769, UInt32(primaryEnd))) }
        if !gps.isEmpty { primary.append(.long(0x8825, UInt32(exifEnd))) }
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]
        for directory in [primary, exif, gps] where !directory.isEmpty {
            tiff += encode(directory, at: tiff.count)
        }
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + payload
    }

    /// The bytes of a directory of `count` entries and the values of `entries` that do not fit in one.
    private static func directorySize(_ count: Int, data entries: [Entry]) -> Int {
        2 + 12 * count + 4 + entries.reduce(0) { $0 + ($1.bytes.count > 4 ? $1.bytes.count + $1.bytes.count % 2 : 0) }
    }

    /// A directory written at `offset` of the TIFF: its entries sorted by tag, no next directory, then its data.
    private static func encode(_ entries: [Entry], at offset: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var directory = bytes(UInt16(sorted.count))
        var data: [UInt8] = []
        let dataStart = offset + 2 + 12 * sorted.count + 4
        for entry in sorted {
            directory += bytes(entry.tag) + bytes(entry.type) + bytes(UInt32(entry.count))
            if entry.bytes.count <= 4 {
                directory += entry.bytes + [UInt8](repeating: 0, count: 4 - entry.bytes.count)
            } else {
                directory += bytes(UInt32(dataStart + data.count))
                data += entry.bytes
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return directory + bytes(UInt32(0)) + data
    }

    private static func bytes(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func bytes(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }

    /// One tagged value, big-endian.
    private struct Entry {
        let tag: UInt16
        /// TIFF's type: 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL.
        let type: UInt16
        let count: Int
        let bytes: [UInt8]

        static func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return Entry(tag: tag, type: 2, count: bytes.count, bytes: bytes)
        }

        static func short(_ tag: UInt16, _ value: UInt16) -> Entry {
            Entry(tag: tag, type: 3, count: 1, bytes: JPEGExifWriter.bytes(value))
        }

        static func long(_ tag: UInt16, _ value: UInt32) -> Entry {
            Entry(tag: tag, type: 4, count: 1, bytes: JPEGExifWriter.bytes(value))
        }

        /// Rationals with a denominator of 10,000: four decimals.
        static func rationals(_ tag: UInt16, _ values: [Double]) -> Entry {
            let bytes = values.flatMap { value in
                JPEGExifWriter.bytes(UInt32(min(value * 10_000, Double(UInt32.max)).rounded())) + JPEGExifWriter.bytes(UInt32(10_000))
            }
            return Entry(tag: tag, type: 5, count: values.count, bytes: bytes)
        }

        /// Degrees as GPS writes them: degrees, minutes and seconds.
        static func degrees(_ tag: UInt16, _ value: Double) -> Entry {
            let degrees = value.rounded(.down), minutes = ((value - degrees) * 60).rounded(.down)
            return rationals(tag, [degrees, minutes, (value - degrees - minutes / 60) * 3600])
        }
    }
}
