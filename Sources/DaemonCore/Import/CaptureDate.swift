import Foundation
import Imaging
import MediaProbe
import PhotoModel

/// Picks an asset's creation date from what the file says, best source first.
enum CaptureDate {
    /// What the file system and the file's name tell, the fallbacks after the file's own metadata.
    struct Clues {
        var fileName: String
        var modificationTime: Double
    }

    /// EXIF DateTimeOriginal (with its offset, else one the GPS clock implies, else the daemon's), else the embedded
    /// XMP's creation date (with its offset, else the daemon's), else the GPS clock, else the file name, else the
    /// modification time.
    static func resolve(exif: ExifDateTime?, xmp: ExifDateTime?, gps: Date?, clues: Clues) -> (
        Timestamp, CreationDateSource
    ) {
        if let exif {
            if let offset = exif.utcOffsetSeconds { return (timestamp(exif, at: offset), .exif) }
            if let gps, let offset = offset(ofWallClock: timestamp(exif, at: 0).secondsSince1970, gpsClock: gps) {
                return (timestamp(exif, at: offset), .exifWithGPSOffset)
            }
            return (timestamp(exif, at: localOffset(atWallClock: exif)), .exifWithoutOffset)
        }
        if let xmp {
            if let offset = xmp.utcOffsetSeconds { return (timestamp(xmp, at: offset), .xmp) }
            return (timestamp(xmp, at: localOffset(atWallClock: xmp)), .xmpWithoutOffset)
        }
        if let gps {
            let seconds = gps.timeIntervalSince1970
            return (Timestamp(secondsSince1970: seconds, utcOffsetSeconds: localOffset(at: seconds)), .gps)
        }
        return resolve(clues)
    }

    /// The container's creation time (in its own offset when it has one), else the file name, else the modification time.
    static func resolve(media: MediaInfo, clues: Clues) -> (Timestamp, CreationDateSource) {
        guard var date = media.creationDate else { return resolve(clues) }
        if !media.creationDateHasLocalOffset { date.utcOffsetSeconds = localOffset(at: date.secondsSince1970) }
        return (date, .mediaMetadata)
    }

    private static func resolve(_ clues: Clues) -> (Timestamp, CreationDateSource) {
        if let named = FileNameDate(fileName: clues.fileName) {
            let offset = localOffset(atLocalYear: named.year, month: named.month, day: named.day, hour: named.hour)
            return (
                Timestamp(
                    year: named.year, month: named.month, day: named.day, hour: named.hour, minute: named.minute,
                    second: named.second, utcOffsetSeconds: offset), .fileName
            )
        }
        let seconds = clues.modificationTime
        return (Timestamp(secondsSince1970: seconds, utcOffsetSeconds: localOffset(at: seconds)), .fileModification)
    }

    /// A wall-clock time at a UTC offset.
    private static func timestamp(_ time: ExifDateTime, at offset: Int) -> Timestamp {
        Timestamp(
            year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute,
            second: time.second, fractionalSecond: time.fractionalSecond, utcOffsetSeconds: offset)
    }

    /// The daemon's time zone offset for a wall-clock time recorded without one.
    private static func localOffset(atWallClock time: ExifDateTime) -> Int {
        localOffset(atLocalYear: time.year, month: time.month, day: time.day, hour: time.hour)
    }

    /// The time zone a camera clock was set to, from its wall-clock time (read as if UTC) and the GPS clock (UTC)
    /// at the same moment: their difference rounded to a quarter hour, when that is a real offset (±14 h) and the
    /// two clocks agree to within five minutes of it.
    static func offset(ofWallClock wallClock: Double, gpsClock: Date) -> Int? {
        let difference = wallClock - gpsClock.timeIntervalSince1970
        let offset = Int((difference / 900).rounded()) * 900
        guard abs(offset) <= 14 * 3_600, abs(difference - Double(offset)) <= 300 else { return nil }
        return offset
    }

    /// The daemon's time zone offset at an instant.
    static func localOffset(at seconds: Double) -> Int {
        TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
    }

    /// The daemon's time zone offset for a local wall-clock time (dates without an offset).
    private static func localOffset(atLocalYear year: Int, month: Int, day: Int, hour: Int) -> Int {
        let asUTC = Timestamp(year: year, month: month, day: day, hour: hour, minute: 0, second: 0, utcOffsetSeconds: 0)
        return localOffset(at: asUTC.secondsSince1970 - Double(localOffset(at: asUTC.secondsSince1970)))
    }
}
