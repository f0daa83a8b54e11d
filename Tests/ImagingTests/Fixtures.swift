import Foundation
import Imaging
import TestSupport

/// A temporary directory of image files made with the real `vips` and `exiftool`; removed when released.
final class Fixtures {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ImagingTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// A black image saved by `vips` in the format `name`'s extension names, without metadata,
    /// then given the EXIF tags `exiftool` writes for `exif` (e.g. `["-Orientation#=6"]`) in a new block.
    func image(
        _ name: String, width: Int = 120, height: Int = 80,
        exif: [String] = [], byteOrder: ExifByteOrder = .bigEndian
    ) throws -> String {
        let source = path("source-\(UUID().uuidString).png")
        try run("/usr/bin/vips", ["black", source, "\(width)", "\(height)"])
        try run("/usr/bin/vips", ["copy", source, path(name) + "[strip]"])
        try FileManager.default.removeItem(atPath: source)
        if !exif.isEmpty {
            try run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-ExifByteOrder=\(byteOrder.rawValue)"] + exif + [path(name)])
        }
        return path(name)
    }

    func write(_ name: String, bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: directory.appendingPathComponent(name))
        return path(name)
    }

    /// Runs a tool to completion and returns what it printed; throws when it fails.
    @discardableResult
    func run(_ executable: String, _ arguments: [String]) throws -> String {
        try runTool(executable, arguments).output
    }
}

/// The byte order `exiftool` writes a new EXIF block in.
enum ExifByteOrder: String, CaseIterable, Sendable {
    case bigEndian = "MM"
    case littleEndian = "II"
}

/// A valid grayscale PNG header declaring `width`×`height`, followed by a tiny IDAT and IEND.
/// libvips reads only the header, so the pixel data need not match.
func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
    func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }
    // Bit depth 8, colour type 0 (grayscale), deflate, adaptive filtering, no interlace.
    let header = bigEndian(width) + bigEndian(height) + [8, 0, 0, 0, 0]
    // A zlib stream of stored (uncompressed) blocks holding one zero byte: the filter byte of row one.
    let pixels: [UInt8] = [0x78, 0x01, 0x01, 0x01, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x01, 0x00, 0x01]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        + chunk("IHDR", header) + chunk("IDAT", pixels) + chunk("IEND", [])
}

/// CRC-32 as PNG chunks use it (ISO 3309, reflected polynomial 0xEDB88320).
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
        }
    }
    return ~crc
}

/// Whether two locations agree to within `tolerance` (degrees and metres), absent altitudes included.
func matches(_ location: GeoLocation?, _ expected: GeoLocation?, tolerance: Double = 1e-9) -> Bool {
    guard let location, let expected else { return location == nil && expected == nil }
    let altitudesMatch = switch (location.altitude, expected.altitude) {
    case (nil, nil): true
    case let (altitude?, expectedAltitude?): abs(altitude - expectedAltitude) < tolerance
    default: false
    }
    return abs(location.latitude - expected.latitude) < tolerance
        && abs(location.longitude - expected.longitude) < tolerance
        && altitudesMatch
}
