/// The metadata written in an asset's original file, grouped as PhotoKit's `CGImageSource` properties are: every
/// value as text, dates as written, numbers in decimal.
public struct AssetMetadata: Sendable, Hashable, Codable {
    /// EXIF's own directory (`{Exif}`): exposure, lens, capture dates.
    public var exif: [String: String]
    /// The GPS directory (`{GPS}`), named without the `GPS` prefix as Apple names them.
    public var gps: [String: String]
    /// The primary image's TIFF tags (`{TIFF}`): make, model, orientation, software.
    public var tiff: [String: String]
    /// IPTC-IIM records (`{IPTC}`): captions, keywords, credits.
    public var iptc: [String: String]
    /// XMP properties, named `namespace:Property` (`dc:subject`).
    public var xmp: [String: String]
    /// Apple's maker notes, when the camera wrote them.
    public var makerApple: [String: String]?
    /// A video's or sound's container tags (QuickTime keys, item lists, user data).
    public var container: [String: String]?

    public init(exif: [String: String] = [:], gps: [String: String] = [:], tiff: [String: String] = [:],
                iptc: [String: String] = [:], xmp: [String: String] = [:], makerApple: [String: String]? = nil,
                container: [String: String]? = nil) {
        self.exif = exif
        self.gps = gps
        self.tiff = tiff
        self.iptc = iptc
        self.xmp = xmp
        self.makerApple = makerApple
        self.container = container
    }
}
