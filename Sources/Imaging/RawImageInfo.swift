import PhotoModel

/// What LibRaw reads of a camera RAW file: the size of the image it decodes to, turned upright, the orientation,
/// the capture data and the embedded preview's size. The `photolibd-raw` helper writes it as JSON.
public struct RawImageInfo: Sendable, Hashable, Codable {
    /// Width once turned upright.
    public var pixelWidth: Int
    /// Height once turned upright.
    public var pixelHeight: Int
    /// The camera's orientation as an EXIF value, 1...8.
    public var orientation: Int
    /// The capture time on the camera's clock, `YYYY:MM:DD HH:MM:SS` as EXIF writes it; no offset.
    public var dateTimeOriginal: String?
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    public var camera = CameraData()
    /// The embedded preview's size as stored, when the file has one.
    public var previewWidth: Int?
    public var previewHeight: Int?

    public var location: GeoLocation? {
        guard let latitude, let longitude else { return nil }
        return GeoLocation(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    public var captureTime: ExifDateTime? {
        guard let text = dateTimeOriginal else { return nil }
        let fields = text.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard fields.count == 6, fields[0] > 1900, (1...12).contains(fields[1]), (1...31).contains(fields[2]) else { return nil }
        return ExifDateTime(year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4], second: fields[5])
    }
}
