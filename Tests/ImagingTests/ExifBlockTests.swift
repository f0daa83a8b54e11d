import Foundation
import PhotoModel
@testable import Imaging
import Testing

/// Builds EXIF blocks byte by byte (a TIFF header, IFD0 pointing at EXIF and GPS directories),
/// for structures and values no tool will write.
struct ExifBlockBuilder {
    enum Value {
        case ascii(String)
        case byte(UInt8)
        case rationals([(UInt32, UInt32)])
        /// A value too long to fit its entry, whose offset points past the end of the block.
        case outsideTheBlock
    }

    var bigEndian = false
    var exifPrefix = true
    var exif: [(UInt16, Value)] = []
    var gps: [(UInt16, Value)] = []

    func build() -> [UInt8] {
        func directorySize(_ entryCount: Int) -> Int { 2 + 12 * entryCount + 4 }
        let exifOffset = 8 + directorySize(2)
        let gpsOffset = exifOffset + directorySize(exif.count)
        let dataOffset = gpsOffset + directorySize(gps.count)
        var data: [UInt8] = []

        func directory(_ entries: [(UInt16, Value)]) -> [UInt8] {
            var bytes = uint16(UInt16(entries.count))
            for (tag, value) in entries {
                let (type, count, payload) = encode(value)
                bytes += uint16(tag) + uint16(type) + uint32(count)
                if case .outsideTheBlock = value {
                    bytes += uint32(0xFFFF_FF00)
                } else if payload.count <= 4 {
                    bytes += payload + Array(repeating: 0, count: 4 - payload.count)
                } else {
                    bytes += uint32(UInt32(dataOffset + data.count))
                    data += payload
                }
            }
            return bytes + uint32(0)  // no next directory
        }

        let header = Array((bigEndian ? "MM" : "II").utf8) + uint16(42) + uint32(8)
        let primary = uint16(2)
            + uint16(ExifTag.exifPointer) + uint16(4) + uint32(1) + uint32(UInt32(exifOffset))
            + uint16(ExifTag.gpsPointer) + uint16(4) + uint32(1) + uint32(UInt32(gpsOffset))
            + uint32(0)
        let exifDirectory = directory(exif)
        let gpsDirectory = directory(gps)
        return (exifPrefix ? Array("Exif\0\0".utf8) : []) + header + primary + exifDirectory + gpsDirectory + data
    }

    private func encode(_ value: Value) -> (type: UInt16, count: UInt32, payload: [UInt8]) {
        switch value {
        case .ascii(let text): (2, UInt32(text.utf8.count + 1), Array(text.utf8) + [0])
        case .byte(let byte): (1, 1, [byte])
        case .rationals(let parts): (5, UInt32(parts.count), parts.flatMap { uint32($0.0) + uint32($0.1) })
        case .outsideTheBlock: (5, 3, [])
        }
    }

    private func uint16(_ value: UInt16) -> [UInt8] {
        let bytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }

    private func uint32(_ value: UInt32) -> [UInt8] {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
        return bigEndian ? bytes : bytes.reversed()
    }
}

// MARK: - Tests

private let paris = ExifBlockBuilder(
    exif: [
        (ExifTag.dateTimeOriginal, .ascii("2024:01:31 10:15:00")),
        (ExifTag.offsetTimeOriginal, .ascii("+01:00")),
        (ExifTag.subSecTimeOriginal, .ascii("25")),
    ],
    gps: [
        (ExifTag.gpsLatitudeRef, .ascii("N")),
        (ExifTag.gpsLatitude, .rationals([(48, 1), (51, 1), (3024, 100)])),
        (ExifTag.gpsLongitudeRef, .ascii("E")),
        (ExifTag.gpsLongitude, .rationals([(2, 1), (17, 1), (4020, 100)])),
        (ExifTag.gpsAltitudeRef, .byte(0)),
        (ExifTag.gpsAltitude, .rationals([(35, 1)])),
        (ExifTag.gpsTimeStamp, .rationals([(9, 1), (15, 1), (1, 2)])),
        (ExifTag.gpsDateStamp, .ascii("2024:01:31")),
    ]
)

@Test(arguments: [false, true], [false, true])
func aBlockReadsTheSameInEitherByteOrderWithOrWithoutTheExifPrefix(bigEndian: Bool, exifPrefix: Bool) throws {
    var builder = paris
    (builder.bigEndian, builder.exifPrefix) = (bigEndian, exifPrefix)
    let block = try #require(ExifBlock(builder.build()))
    #expect(block.dateTimeOriginal == ExifDateTime(
        year: 2024, month: 1, day: 31, hour: 10, minute: 15, second: 0, fractionalSecond: 0.25, utcOffsetSeconds: 3_600))
    #expect(block.gpsTimestamp == Date(timeIntervalSince1970: 1_706_692_500.5))  // 2024-01-31T09:15:00.5Z
    let location = try #require(block.location)
    #expect(abs(location.latitude - 48.8584) < 1e-12)
    #expect(abs(location.longitude - 2.2945) < 1e-12)
    #expect(location.altitude == 35)
}

@Test(arguments: [
    ("2024:01:31 10:15:00", nil, nil, ExifDateTime(year: 2024, month: 1, day: 31, hour: 10, minute: 15, second: 0)),
    ("2024:02:29 00:00:00", "5", "-05:30",
     ExifDateTime(year: 2024, month: 2, day: 29, hour: 0, minute: 0, second: 0,
                  fractionalSecond: 0.5, utcOffsetSeconds: -19_800)),
    ("2000:02:29 12:00:00", "123 ", "+14:00",
     ExifDateTime(year: 2000, month: 2, day: 29, hour: 12, minute: 0, second: 0,
                  fractionalSecond: 0.123, utcOffsetSeconds: 50_400)),
    ("2024:01:31 10:15:00", "1.5", "+1:00", ExifDateTime(year: 2024, month: 1, day: 31, hour: 10, minute: 15, second: 0)),
    ("2024:01:31 10:15:00", nil, "Z", ExifDateTime(year: 2024, month: 1, day: 31, hour: 10, minute: 15, second: 0)),
    ("2024:01:31 10:15:00", nil, "+19:00", ExifDateTime(year: 2024, month: 1, day: 31, hour: 10, minute: 15, second: 0)),
    ("2023:02:29 10:15:00", nil, nil, nil),
    ("1900:02:29 10:15:00", nil, nil, nil),
    ("2024:04:31 10:15:00", nil, nil, nil),
    ("2024:01:31 24:00:00", nil, nil, nil),
    ("2024:01:31 10:60:00", nil, nil, nil),
    ("2024:01:31 10:15", nil, nil, nil),
    ("2024-01-31 10:15:00", nil, nil, nil),
    ("2024:01:31T10:15:00", nil, nil, nil),
    ("2024:1:31 10:15:00", nil, nil, nil),
    ("    :  :     :  :  ", nil, nil, nil),
    ("0000:00:00 00:00:00", nil, nil, nil),
] as [(String, String?, String?, ExifDateTime?)])
func dateTimeOriginalAcceptsOnlyRealDatesInTheEXIFFormat(
    dateTime: String, subseconds: String?, offset: String?, expected: ExifDateTime?
) throws {
    var builder = ExifBlockBuilder(exif: [(ExifTag.dateTimeOriginal, .ascii(dateTime))])
    if let subseconds { builder.exif.append((ExifTag.subSecTimeOriginal, .ascii(subseconds))) }
    if let offset { builder.exif.append((ExifTag.offsetTimeOriginal, .ascii(offset))) }
    let block = try #require(ExifBlock(builder.build()))
    #expect(block.dateTimeOriginal == expected)
}

@Test(arguments: [
    // One, two or three components: degrees, minutes, seconds.
    ([(UInt32(52), UInt32(1))], "S", [(UInt32(13), UInt32(1)), (UInt32(30), UInt32(1))], "w",
     GeoLocation(latitude: -52, longitude: -13.5)),
    ([(5_230, 100)], "N", [(13, 1), (24, 1), (36, 1)], "E", GeoLocation(latitude: 52.3, longitude: 13.41)),
    // A zero denominator, a missing or unknown ref, or an impossible angle: no location.
    ([(52, 0), (0, 1), (0, 1)], "N", [(13, 1), (0, 1), (0, 1)], "E", nil),
    ([(52, 1), (0, 1), (0, 1)], "", [(13, 1), (0, 1), (0, 1)], "E", nil),
    ([(52, 1), (0, 1), (0, 1)], "N", [(13, 1), (0, 1), (0, 1)], "X", nil),
    ([(90, 1), (0, 1), (1, 1)], "N", [(13, 1), (0, 1), (0, 1)], "E", nil),
    ([(52, 1), (0, 1), (0, 1)], "N", [(181, 1), (0, 1), (0, 1)], "W", nil),
    ([], "N", [(13, 1), (0, 1), (0, 1)], "E", nil),
] as [([(UInt32, UInt32)], String, [(UInt32, UInt32)], String, GeoLocation?)])
func coordinatesNeedValidRationalsAndRefs(
    latitude: [(UInt32, UInt32)], latitudeRef: String, longitude: [(UInt32, UInt32)], longitudeRef: String,
    expected: GeoLocation?
) throws {
    let builder = ExifBlockBuilder(gps: [
        (ExifTag.gpsLatitudeRef, .ascii(latitudeRef)), (ExifTag.gpsLatitude, .rationals(latitude)),
        (ExifTag.gpsLongitudeRef, .ascii(longitudeRef)), (ExifTag.gpsLongitude, .rationals(longitude)),
    ])
    let location = try #require(ExifBlock(builder.build())).location
    #expect(matches(location, expected, tolerance: 1e-12), "\(String(describing: location))")
}

@Test(arguments: [
    (UInt8?.none, [(UInt32(12), UInt32(1))], 12.0),
    (0, [(12, 1)], 12),
    (1, [(861, 2)], -430.5),
    (2, [(12, 1)], nil),
    (1, [(12, 0)], nil),
    (0, [], nil),
] as [(UInt8?, [(UInt32, UInt32)], Double?)])
func altitudeIsSignedByItsRefAndDroppedWhenMalformed(ref: UInt8?, altitude: [(UInt32, UInt32)], expected: Double?) throws {
    var builder = ExifBlockBuilder(gps: [
        (ExifTag.gpsLatitudeRef, .ascii("N")), (ExifTag.gpsLatitude, .rationals([(1, 1)])),
        (ExifTag.gpsLongitudeRef, .ascii("E")), (ExifTag.gpsLongitude, .rationals([(1, 1)])),
        (ExifTag.gpsAltitude, .rationals(altitude)),
    ])
    if let ref { builder.gps.append((ExifTag.gpsAltitudeRef, .byte(ref))) }
    let location = try #require(ExifBlock(builder.build())?.location)
    #expect(location.altitude == expected)
}

@Test func valuesPointingOutsideTheBlockReadAsAbsent() throws {
    let builder = ExifBlockBuilder(
        exif: [(ExifTag.dateTimeOriginal, .outsideTheBlock)],
        gps: [
            (ExifTag.gpsLatitudeRef, .ascii("N")), (ExifTag.gpsLatitude, .outsideTheBlock),
            (ExifTag.gpsLongitudeRef, .ascii("E")), (ExifTag.gpsLongitude, .rationals([(1, 1)])),
            (ExifTag.gpsDateStamp, .ascii("2024:01:31")), (ExifTag.gpsTimeStamp, .outsideTheBlock),
        ]
    )
    let block = try #require(ExifBlock(builder.build()))
    #expect(block.dateTimeOriginal == nil)
    #expect(block.location == nil)
    #expect(block.gpsTimestamp == nil)
}

@Test(arguments: [
    [UInt8](), Array("Exif\0\0".utf8), Array("Exif\0\0II*\0".utf8), Array("XX*\0\u{8}\0\0\0".utf8),
    Array("II+\0\u{8}\0\0\0".utf8),
])
func bytesThatAreNotATIFFStructureAreNoBlock(bytes: [UInt8]) {
    #expect(ExifBlock(bytes) == nil)
}

@Test(arguments: [false, true])
func everyTruncationOfABlockKeepsOnlyTheValuesStillWhole(bigEndian: Bool) throws {
    var builder = paris
    builder.bigEndian = bigEndian
    let bytes = builder.build()
    let whole = try #require(ExifBlock(bytes))
    for length in 0..<bytes.count {
        guard let block = ExifBlock(Array(bytes.prefix(length))) else { continue }
        if let date = block.dateTimeOriginal, let wholeDate = whole.dateTimeOriginal {
            #expect((date.year, date.month, date.day, date.hour, date.minute, date.second)
                == (wholeDate.year, wholeDate.month, wholeDate.day, wholeDate.hour, wholeDate.minute, wholeDate.second))
            #expect(date.fractionalSecond == 0 || date.fractionalSecond == wholeDate.fractionalSecond)
            #expect(date.utcOffsetSeconds == nil || date.utcOffsetSeconds == wholeDate.utcOffsetSeconds)
        }
        #expect(block.gpsTimestamp == nil || block.gpsTimestamp == whole.gpsTimestamp, "length \(length)")
        if let location = block.location, let wholeLocation = whole.location {
            #expect((location.latitude, location.longitude) == (wholeLocation.latitude, wholeLocation.longitude))
            #expect(location.altitude == nil || location.altitude == wholeLocation.altitude)
        }
    }
}

@Test func everySingleByteCorruptionOfABlockReadsWithoutTrapping() {
    let bytes = paris.build()
    var readable = 0
    for position in bytes.indices {
        for replacement: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
            var corrupted = bytes
            corrupted[position] = replacement
            guard let block = ExifBlock(corrupted) else { continue }
            readable += 1
            _ = (block.dateTimeOriginal, block.gpsTimestamp, block.location)
        }
    }
    #expect(readable > bytes.count)  // most corruptions leave the header intact, so the values were parsed
}

@Test func cameraNumbersThatCannotBeTrueCountAsAbsent() throws {
    let block = try #require(ExifBlock(ExifBlockBuilder(exif: [
        (ExifTag.fNumber, .rationals([(0, 10)])),
        (ExifTag.exposureTime, .rationals([(1, 0)])),
        (ExifTag.focalLength, .rationals([(35, 1)])),
        (ExifTag.lensModel, .ascii("  ")),
    ]).build()))
    #expect(block.camera == CameraData(focalLength: 35))
}
