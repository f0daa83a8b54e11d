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
        dateTimeOriginal.flatMap(ExifDateTime.init(exifText:))
    }
}
