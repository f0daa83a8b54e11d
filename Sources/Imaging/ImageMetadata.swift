import Foundation
import PhotoModel

/// What a photo library needs from an image file's header: format, size, orientation, capture date, place and burst.
public struct ImageMetadata: Sendable, Hashable {
    /// The libvips loader that read the file, e.g. "jpegload", "pngload", "heifload".
    public var format: String
    /// "image/jpeg", "image/png", "image/heic", "image/avif", "image/webp", "image/tiff" or "image/gif".
    public var mimeType: String
    /// Width as encoded, before applying the orientation.
    public var storedWidth: Int
    /// Height as encoded, before applying the orientation.
    public var storedHeight: Int
    /// EXIF orientation, 1...8; 1 when absent or out of range.
    public var orientation: Int
    /// EXIF DateTimeOriginal with its OffsetTimeOriginal and SubSecTimeOriginal.
    public var dateTimeOriginal: ExifDateTime?
    /// The capture date the embedded XMP records (xmp:CreateDate, else xmp:DateCreated or photoshop:DateCreated), with
    /// its offset when it has one: what an editor's export keeps when its EXIF has no DateTimeOriginal (only then read).
    public var xmpCreateDate: ExifDateTime?
    /// The GPS clock's UTC instant, from GPSDateStamp and GPSTimeStamp.
    public var gpsTimestamp: Date?
    /// Where the photo was taken, from the EXIF GPS tags.
    public var location: GeoLocation?
    /// The camera, lens and exposure, from the EXIF tags.
    public var camera: CameraData
    /// How many frames (pages) the file holds: more than one for an animated GIF or WebP.
    public var pageCount = 1
    /// EXIF's CustomRendered: 6 a panorama, 7 and 8 a portrait with depth (as Apple's cameras write it).
    public var customRendered: Int?
    /// The burst the photo is a frame of: Apple's BurstUUID from an iPhone's maker note, shared by the burst's frames.
    public var burstIdentifier: String?

    /// Width as displayed: orientations 5...8 turn the image a quarter, swapping width and height.
    public var pixelWidth: Int { swapsAxes ? storedHeight : storedWidth }
    /// Height as displayed: orientations 5...8 turn the image a quarter, swapping width and height.
    public var pixelHeight: Int { swapsAxes ? storedWidth : storedHeight }

    private var swapsAxes: Bool { (5...8).contains(orientation) }

    public init(
        format: String,
        mimeType: String,
        storedWidth: Int,
        storedHeight: Int,
        orientation: Int = 1,
        dateTimeOriginal: ExifDateTime? = nil,
        gpsTimestamp: Date? = nil,
        location: GeoLocation? = nil,
        camera: CameraData = CameraData()
    ) {
        self.format = format
        self.mimeType = mimeType
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
        self.gpsTimestamp = gpsTimestamp
        self.location = location
        self.camera = camera
    }
}

/// A camera's local wall-clock time as EXIF records it, with its UTC offset when the camera wrote one.
public struct ExifDateTime: Sendable, Hashable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Fraction of a second in 0..<1, from SubSecTimeOriginal; 0 when absent.
    public var fractionalSecond: Double
    /// Offset from UTC in seconds, from OffsetTimeOriginal ("+01:00" is 3600); nil when absent.
    public var utcOffsetSeconds: Int?

    public init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
        fractionalSecond: Double = 0, utcOffsetSeconds: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.fractionalSecond = fractionalSecond
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}

/// A WGS 84 position in decimal degrees.
public struct GeoLocation: Sendable, Hashable {
    /// Degrees north of the equator; negative in the southern hemisphere.
    public var latitude: Double
    /// Degrees east of Greenwich; negative in the western hemisphere.
    public var longitude: Double
    /// Metres above sea level; negative below it; nil when absent.
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}
