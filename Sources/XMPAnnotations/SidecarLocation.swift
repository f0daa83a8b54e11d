import Foundation
import PhotoModel

/// The position darktable, digiKam and Lightroom write into a sidecar: `exif:GPSLatitude` and `exif:GPSLongitude`
/// as XMP's GPS coordinates (`DDD,MM,SSk` or `DDD,MM.mmk`, `k` one of N, S, E, W), `exif:GPSAltitude` as a
/// rational of metres above (`exif:GPSAltitudeRef` 0) or below (1) sea level.
enum LocationProperties {
    static let latitude = "Xmp.exif.GPSLatitude"
    static let longitude = "Xmp.exif.GPSLongitude"
    static let altitude = "Xmp.exif.GPSAltitude"
    static let altitudeReference = "Xmp.exif.GPSAltitudeRef"

    /// The position `document` gives, with what could not be used (then ignored): nil without both coordinates.
    static func read(_ document: MetadataDocument) -> (location: Location?, problems: [String]) {
        let latitudeText = document.values(of: latitude)
        let longitudeText = document.values(of: longitude)
        guard latitudeText != nil || longitudeText != nil else { return (nil, []) }
        guard let latitudeValue = coordinate(latitudeText, positive: "N", negative: "S", limit: 90),
            let longitudeValue = coordinate(longitudeText, positive: "E", negative: "W", limit: 180)
        else {
            let shown = [latitudeText, longitudeText].map {
                ($0 ?? []).joined(separator: ", ").prefix(40).debugDescription
            }
            return (nil, ["exif:GPSLatitude \(shown[0]) and exif:GPSLongitude \(shown[1]) are not a position"])
        }
        var problems: [String] = []
        var location = Location(latitude: latitudeValue, longitude: longitudeValue)
        if let text = document.values(of: altitude) {
            if let metres = text.count == 1 ? rational(text[0]) : nil, abs(metres) < 1e6 {
                let isBelow = document.values(of: altitudeReference)?.first?.trimmingCharacters(in: .whitespaces) == "1"
                location.altitude = isBelow ? -metres : metres
            } else {
                problems.append(
                    "exif:GPSAltitude \(text.joined(separator: ", ").prefix(40).debugDescription) is not a height")
            }
        }
        return (location, problems)
    }

    /// A coordinate in degrees from XMP's `DDD,MM,SSk` or `DDD,MM.mmk` (or decimal degrees `DDD.dddk`); nil
    /// unless it is one of them and on the globe.
    static func coordinate(_ values: [String]?, positive: Character, negative: Character, limit: Double) -> Double? {
        guard let values, values.count == 1 else { return nil }
        let text = values[0].trimmingCharacters(in: .whitespaces)
        guard let direction = text.last?.uppercased().first, direction == positive || direction == negative else {
            return nil
        }
        let parts = text.dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Double] = []
        for part in parts {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            // Digits and one point only: no signs, exponents, "nan" or "inf".
            guard !trimmed.isEmpty, trimmed.count <= 24,
                trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                let number = Double(trimmed), number.isFinite
            else { return nil }
            numbers.append(number)
        }
        guard numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let degrees =
            numbers[0] + (numbers.count > 1 ? numbers[1] / 60 : 0) + (numbers.count > 2 ? numbers[2] / 3600 : 0)
        guard degrees <= limit else { return nil }
        return direction == negative ? -degrees : degrees
    }

    /// A rational (`408/1`) or a plain number, finite and not negative.
    static func rational(_ text: String) -> Double? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let numerator = Double(parts[0]), numerator.isFinite, numerator >= 0 else {
            return nil
        }
        guard parts.count == 2 else { return numerator }
        guard let denominator = Double(parts[1]), denominator.isFinite, denominator > 0 else { return nil }
        return numerator / denominator
    }

    /// `degrees` as XMP's `DDD,MM.mmmmmmmmk`: minutes to 10⁻⁸ (a millimetre), the direction by its sign.
    static func text(of degrees: Double, positive: Character, negative: Character) -> String {
        let units = Int64((abs(degrees) * 60 * 100_000_000).rounded())
        let (whole, fraction) = (units / 6_000_000_000, units % 6_000_000_000)
        let minutes = String(fraction / 100_000_000)
        let decimals = String(fraction % 100_000_000)
        return "\(whole),\(String(repeating: "0", count: 2 - minutes.count))\(minutes)."
            + "\(String(repeating: "0", count: 8 - decimals.count))\(decimals)\(degrees < 0 ? negative : positive)"
    }

    /// Writes `location` into `document` (removes the position when cleared; leaves it alone when unchanged).
    static func write(_ location: FieldUpdate<Location>, into document: MetadataDocument) throws(MetadataError) {
        switch location {
        case .unchanged:
            return
        case .cleared:
            [latitude, longitude, altitude, altitudeReference].forEach(document.remove)
        case .set(let location):
            try document.set(latitude, to: text(of: location.latitude, positive: "N", negative: "S"))
            try document.set(longitude, to: text(of: location.longitude, positive: "E", negative: "W"))
            if let metres = location.altitude, metres.isFinite, abs(metres) < 1e6 {
                try document.set(altitude, to: "\(Int64((abs(metres) * 1000).rounded()))/1000")
                try document.set(altitudeReference, to: metres < 0 ? "1" : "0")
            } else {
                [altitude, altitudeReference].forEach(document.remove)
            }
        }
    }
}
