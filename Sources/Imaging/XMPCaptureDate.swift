import Foundation

/// The capture date an image's embedded XMP packet records: what a Photoshop or Lightroom export, a scan or an edited
/// screenshot keeps when its EXIF has no DateTimeOriginal.
enum XMPCaptureDate {
    /// The properties read, best first: when the resource was first made, then when its content was.
    static let properties = ["xmp:CreateDate", "xmp:DateCreated", "photoshop:DateCreated"]

    /// The first of `properties` the packet holds with a date and a time of day; a date alone is no capture time.
    static func read(_ packet: [UInt8]) -> ExifDateTime? {
        let text = String(decoding: packet, as: UTF8.self)
        for property in properties {
            if let value = value(of: property, in: text), let date = ExifDateTime(xmpText: value) { return date }
        }
        return nil
    }

    /// A simple property's text, written as an attribute (`xmp:CreateDate="…"`) or as an element
    /// (`<xmp:CreateDate>…</xmp:CreateDate>`), as XMP allows both.
    private static func value(of property: String, in text: String) -> String? {
        for quote in ["\"", "'"] {
            guard let start = text.range(of: property + "=" + quote) else { continue }
            let rest = text[start.upperBound...]
            return rest.firstIndex(of: Character(quote)).map { String(rest[..<$0]) }
        }
        guard let start = text.range(of: "<" + property + ">") else { return nil }
        let rest = text[start.upperBound...]
        return rest.firstIndex(of: "<").map { String(rest[..<$0]).trimmingCharacters(in: .whitespaces) }
    }
}

extension ExifDateTime {
    /// An XMP date (ISO 8601: `2019-03-14T10:22:31.25+01:00`, seconds, fraction and offset optional), when it has a
    /// time of day.
    init?(xmpText text: String) {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        var time = parts[1]
        var offset: String?
        if time.hasSuffix("Z") {
            offset = "+00:00"
            time = time.dropLast()
        } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            offset = String(time[sign...])
            time = time[..<sign]
        }
        let secondParts = time.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let clock = secondParts[0].split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(clock.count) else { return nil }
        let exifText =
            parts[0].replacingOccurrences(of: "-", with: ":") + " " + clock.joined(separator: ":")
            + (clock.count == 2 ? ":00" : "")
        self.init(exifText: exifText, subseconds: secondParts.count == 2 ? String(secondParts[1]) : nil, offset: offset)
    }
}
