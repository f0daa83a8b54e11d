import Foundation
import PhotoModel

/// The capture metadata in an EXIF block. Each value is nil when its tags are missing or malformed.
extension ExifBlock {
    /// DateTimeOriginal, with SubSecTimeOriginal and OffsetTimeOriginal when present and well-formed.
    var dateTimeOriginal: ExifDateTime? {
        guard let text = string(ExifTag.dateTimeOriginal, in: .exif) else { return nil }
        return ExifDateTime(exifText: text, subseconds: string(ExifTag.subSecTimeOriginal, in: .exif),
                            offset: string(ExifTag.offsetTimeOriginal, in: .exif))
    }

    /// GPSDateStamp ("YYYY:MM:DD") and GPSTimeStamp (hours, minutes, seconds as rationals), in UTC.
    var gpsTimestamp: Date? {
        guard let dateText = string(ExifTag.gpsDateStamp, in: .gps),
              let time = rationals(ExifTag.gpsTimeStamp, in: .gps), time.count == 3,
              let date = CivilDate(exifText: dateText)
        else { return nil }
        let (hour, minute, second) = (time[0], time[1], time[2])
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second) else { return nil }
        let seconds = Double(date.daysSinceUnixEpoch) * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: seconds)
    }

    /// GPSLatitude/Ref and GPSLongitude/Ref, with GPSAltitude/Ref when present and well-formed.
    var location: GeoLocation? {
        guard let latitude = Self.degrees(rationals(ExifTag.gpsLatitude, in: .gps), maximum: 90),
              let longitude = Self.degrees(rationals(ExifTag.gpsLongitude, in: .gps), maximum: 180)
        else { return nil }
        let latitudeSign: Double
        switch string(ExifTag.gpsLatitudeRef, in: .gps)?.uppercased() {
        case "N": latitudeSign = 1
        case "S": latitudeSign = -1
        default: return nil
        }
        let longitudeSign: Double
        switch string(ExifTag.gpsLongitudeRef, in: .gps)?.uppercased() {
        case "E": longitudeSign = 1
        case "W": longitudeSign = -1
        default: return nil
        }
        return GeoLocation(
            latitude: latitudeSign * latitude,
            longitude: longitudeSign * longitude,
            altitude: altitude
        )
    }

    /// Make and Model (IFD0), LensModel and the exposure (EXIF IFD); zero or negative numbers count as absent.
    var camera: CameraData {
        func positive(_ tag: UInt16) -> Double? {
            rationals(tag, in: .exif)?.first.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        }
        func positiveInteger(_ tag: UInt16) -> Int? {
            integer(tag, in: .exif).flatMap { $0 > 0 ? $0 : nil }
        }
        return CameraData(
            make: string(ExifTag.make, in: .primary), model: string(ExifTag.model, in: .primary),
            lensModel: string(ExifTag.lensModel, in: .exif), fNumber: positive(ExifTag.fNumber),
            exposureTime: positive(ExifTag.exposureTime), iso: positiveInteger(ExifTag.photographicSensitivity),
            focalLength: positive(ExifTag.focalLength), focalLength35mm: positiveInteger(ExifTag.focalLengthIn35mmFilm))
    }

    /// GPSAltitude signed by GPSAltitudeRef: 0 (or absent) above sea level, 1 below.
    private var altitude: Double? {
        guard let metres = rationals(ExifTag.gpsAltitude, in: .gps)?.first, metres >= 0 else { return nil }
        switch integer(ExifTag.gpsAltitudeRef, in: .gps) {
        case nil, 0: return metres
        case 1: return -metres
        default: return nil
        }
    }

    /// Degrees from one to three rationals (degrees, minutes, seconds), if within 0...maximum.
    private static func degrees(_ parts: [Double]?, maximum: Double) -> Double? {
        guard let parts, (1...3).contains(parts.count), parts.allSatisfy({ $0 >= 0 }) else { return nil }
        let degrees = zip(parts, [1.0, 60, 3_600]).reduce(0) { $0 + $1.0 / $1.1 }
        return degrees <= maximum ? degrees : nil
    }

    /// "25" → 0.25: SubSecTime digits are the decimals after the point.
    fileprivate static func fraction(fromDigits digits: String) -> Double? {
        guard digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Double("0." + digits)
    }

    /// "+01:00" → 3600, "-05:30" → -19800.
    fileprivate static func utcOffsetSeconds(from text: String) -> Int? {
        let sign: Int
        switch text.first {
        case "+": sign = 1
        case "-": sign = -1
        default: return nil
        }
        let parts = text.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let hours = Int(exifDigits: parts[0], count: 2),
              let minutes = Int(exifDigits: parts[1], count: 2), hours <= 18, minutes < 60
        else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }
}

extension ExifDateTime {
    /// DateTimeOriginal as EXIF writes it, with SubSecTimeOriginal and OffsetTimeOriginal when given and
    /// well-formed (a malformed offset is left out).
    public init?(exifText text: String, subseconds: String?, offset: String?) {
        self.init(exifText: text)
        if let subseconds { fractionalSecond = ExifBlock.fraction(fromDigits: subseconds) ?? 0 }
        if let offset { utcOffsetSeconds = ExifBlock.utcOffsetSeconds(from: offset) }
    }

    /// Parses EXIF's "YYYY:MM:DD HH:MM:SS"; nil for anything else, including the all-zero "unknown" date.
    init?(exifText text: String) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = CivilDate(exifText: parts[0]) else { return nil }
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 3, let hour = Int(exifDigits: time[0], count: 2),
              let minute = Int(exifDigits: time[1], count: 2), let second = Int(exifDigits: time[2], count: 2),
              hour < 24, minute < 60, second < 60
        else { return nil }
        self.init(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute, second: second)
    }
}

/// A valid proleptic Gregorian calendar date.
struct CivilDate {
    let year: Int
    let month: Int
    let day: Int

    /// Parses EXIF's "YYYY:MM:DD"; nil unless the day exists.
    init?(exifText text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = Int(exifDigits: parts[0], count: 4),
              let month = Int(exifDigits: parts[1], count: 2), let day = Int(exifDigits: parts[2], count: 2),
              year >= 1, (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Days from 1970-01-01 (Howard Hinnant's days_from_civil, for years from 1).
    var daysSinceUnixEpoch: Int {
        let shiftedYear = month <= 2 ? year - 1 : year  // years start in March, so leap days come last
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Int {
    /// A fixed-width run of ASCII digits, as EXIF writes dates and times ("2024", "05").
    fileprivate init?(exifDigits text: some StringProtocol, count: Int) {
        guard text.count == count, text.allSatisfy(\.isASCIIDigit), let value = Int(text) else { return nil }
        self = value
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
