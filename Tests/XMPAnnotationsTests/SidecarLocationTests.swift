import Foundation
import PhotoModel
import TestSupport
import Testing

@testable import XMPAnnotations

struct SidecarLocationTests {
    /// The darktable sidecar with `attributes` (`exif:GPSLatitude="…"`) added to its description.
    static func darktable(with attributes: String) -> String {
        XMPFixtures.darktable.replacingOccurrences(
            of: #"acme:Secret="keep me""#,
            with: #"acme:Secret="keep me" xmlns:exif="http://ns.adobe.com/exif/1.0/" "# + attributes)
    }

    @Test func aDarktableSidecarGivesItsGPSInDegreesAndMinutes() throws {
        let bytes = Array(
            Self.darktable(with: #"exif:GPSLatitude="47,22.5N" exif:GPSLongitude="8,32.5E" exif:GPSAltitude="408/1""#)
                .utf8)
        let reading = try SidecarFile.annotations(inSidecarBytes: bytes)
        let location = try #require(reading.location)
        #expect(abs(location.latitude - 47.375) < 1e-9 && abs(location.longitude - 8.541666666) < 1e-6)
        #expect(location.altitude == 408)
        #expect(reading.rating == 3 && reading.problems.isEmpty)
    }

    @Test func degreesMinutesSecondsSouthAndWestAndBelowSeaLevelAreRead() throws {
        let bytes = Array(
            Self.darktable(
                with: #"exif:GPSLatitude="22,54,30S" exif:GPSLongitude="043,10,12W" exif:GPSAltitude="25/2" "#
                    + #"exif:GPSAltitudeRef="1""#
            ).utf8)
        let location = try #require(try SidecarFile.annotations(inSidecarBytes: bytes).location)
        #expect(abs(location.latitude + (22 + 54 / 60 + 30 / 3600.0)) < 1e-9)
        #expect(abs(location.longitude + (43 + 10 / 60 + 12 / 3600.0)) < 1e-9)
        #expect(location.altitude == -12.5)
    }

    @Test func aSidecarWithoutGPSSaysNothingOfTheLocation() throws {
        let reading = try SidecarFile.annotations(inSidecarBytes: Array(XMPFixtures.darktable.utf8))
        #expect(reading.location == nil)
        #expect(
            reading.overriding(AnnotationReading(location: Location(latitude: 1, longitude: 2))).location
                == Location(latitude: 1, longitude: 2))
    }

    @Test(arguments: [
        #"exif:GPSLatitude="north" exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="47,22.5" exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="47,22.5E" exif:GPSLongitude="8,32.5N""#,
        #"exif:GPSLatitude="91,0N" exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="47,61N" exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="47,22.5N" exif:GPSLongitude="181,0E""#,
        #"exif:GPSLatitude="nan,0N" exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="inf,0N" exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="-47,22.5N" exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="1e308,0N" exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="47,,22.5,1N" exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="99999999999999999999999999999999999999,0N" exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="47,22.5N""#,
        #"exif:GPSLongitude="8,32.5E""#,
        #"exif:GPSLatitude="N" exif:GPSLongitude="E""#,
    ])
    func aMalformedPositionIsIgnoredAndSaidSo(attributes: String) throws {
        let reading = try SidecarFile.annotations(inSidecarBytes: Array(Self.darktable(with: attributes).utf8))
        #expect(reading.location == nil)
        #expect(reading.rating == 3)
        #expect(reading.problems.count == 1)
    }

    @Test(arguments: ["high", "-5/1", "1/0", "nan", "1e300"])
    func aMalformedAltitudeLeavesThePositionWithoutHeight(altitude: String) throws {
        let attributes = #"exif:GPSLatitude="47,22.5N" exif:GPSLongitude="8,32.5E" exif:GPSAltitude="\#(altitude)""#
        let reading = try SidecarFile.annotations(inSidecarBytes: Array(Self.darktable(with: attributes).utf8))
        #expect(reading.location?.altitude == nil && reading.location != nil)
        #expect(reading.problems.count == 1)
    }

    @Test(arguments: [
        Location(latitude: 47.376_886, longitude: 8.541_694, altitude: 408.25),
        Location(latitude: -33.868_82, longitude: 151.209_29),
        Location(latitude: -0.000_001, longitude: -179.999_999_9),
        Location(latitude: 90, longitude: 180),
    ])
    func aWrittenPositionReadsBackAndExiftoolReadsIt(location: Location) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_6.jpg.xmp")
        try XMPFixtures.write(XMPFixtures.darktable, to: path)
        try SidecarFile.write(Annotations(rating: 3), location: .set(location), to: path, mode: 0o644)
        let read = try #require(try SidecarFile.read(path).location)
        #expect(abs(read.latitude - location.latitude) < 1e-9 && abs(read.longitude - location.longitude) < 1e-9)
        #expect(read.altitude == location.altitude)
        let shown = try XMPFixtures.exiftool(
            path, ["-n", "-XMP-exif:GPSLatitude", "-XMP-exif:GPSLongitude", "-XMP-acme:all"])
        let values = Dictionary(
            uniqueKeysWithValues: shown.split(separator: "\n").map {
                let parts = $0.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return (parts[0], parts[1])
            })
        #expect(abs(Double(values["GPSLatitude"] ?? "")! - location.latitude) < 1e-7)
        #expect(abs(Double(values["GPSLongitude"] ?? "")! - location.longitude) < 1e-7)
        #expect(values["Secret"] == "keep me")
    }

    @Test func aClearedLocationRemovesThePositionAndKeepsTheRest() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_7.jpg.xmp")
        try XMPFixtures.write(
            Self.darktable(with: #"exif:GPSLatitude="47,22.5N" exif:GPSLongitude="8,32.5E" exif:GPSAltitude="408/1""#),
            to: path)
        try SidecarFile.write(Annotations(rating: 4), location: .cleared, to: path, mode: 0o644)
        let reading = try SidecarFile.read(path)
        #expect(reading.location == nil && reading.rating == 4)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("GPSLatitude") && !text.contains("GPSAltitude") && text.contains("keep me"))
    }

    @Test func anUnchangedLocationLeavesTheSidecarsPositionAsItIs() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_8.jpg.xmp")
        try XMPFixtures.write(
            Self.darktable(with: #"exif:GPSLatitude="47,22.5N" exif:GPSLongitude="8,32.5E""#), to: path)
        try SidecarFile.write(Annotations(rating: 1), to: path, mode: 0o644)
        #expect(try SidecarFile.read(path).location.map { abs($0.latitude - 47.375) < 1e-9 } == true)
    }

    @Test func positionsAreWrittenAsXMPsDegreesAndMinutes() {
        #expect(LocationProperties.text(of: 47.375, positive: "N", negative: "S") == "47,22.50000000N")
        #expect(LocationProperties.text(of: -8.5, positive: "E", negative: "W") == "8,30.00000000W")
        #expect(LocationProperties.text(of: 0.999_999_999_999, positive: "N", negative: "S") == "1,00.00000000N")
    }
}
