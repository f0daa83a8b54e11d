import Foundation

/// A bounds-checked reader for an EXIF block: a TIFF header, then directories (IFDs) of tagged values.
///
/// libvips attaches the block as the "exif-data" header field. Reading it here gives raw values
/// (exact rationals, numeric refs) where libvips' "exif-ifd*" strings carry libexif's localised
/// descriptions for some tags (GPSAltitudeRef reads "Sea level" for both 0 and 1).
/// Malformed structure reads as absent tags; nothing here traps.
struct ExifBlock {
    /// The sub-directories the metadata lives in.
    enum Directory: Hashable {
        /// IFD0, the primary image's directory (TIFF tags such as Make and Model).
        case primary
        case exif, gps
    }

    private struct Entry {
        let type: UInt16
        let count: Int
        /// Where the values start in `tiff`, already checked to lie inside it.
        let offset: Int
    }

    private let tiff: [UInt8]
    private let isBigEndian: Bool
    private var directories: [Directory: [UInt16: Entry]] = [:]

    /// Reads a block as libvips stores it: "Exif\0\0" then TIFF, or bare TIFF.
    init?(_ block: [UInt8]) {
        let exifPrefix = Array("Exif\0\0".utf8)
        tiff = block.starts(with: exifPrefix) ? Array(block.dropFirst(exifPrefix.count)) : block
        guard tiff.count >= 8 else { return nil }
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): isBigEndian = false  // "II"
        case (0x4D, 0x4D): isBigEndian = true  // "MM"
        default: return nil
        }
        guard uint16(at: 2) == 42, let primaryOffset = uint32(at: 4) else { return nil }
        let primary = directory(at: Int(primaryOffset))
        directories[.primary] = primary
        for (directory, pointerTag) in [(Directory.exif, ExifTag.exifPointer), (.gps, ExifTag.gpsPointer)] {
            if let offset = primary[pointerTag].flatMap(integer) {
                directories[directory] = self.directory(at: offset)
            }
        }
    }

    /// An ASCII value up to its NUL, trimmed of spaces; nil when absent, empty or not ASCII-typed.
    func string(_ tag: UInt16, in directory: Directory) -> String? {
        guard let entry = directories[directory]?[tag], entry.type == 2 else { return nil }
        let characters = tiff[entry.offset..<(entry.offset + entry.count)].prefix { $0 != 0 }
        let text = String(decoding: characters, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    /// RATIONAL or SRATIONAL values; nil when absent, otherwise typed, or any denominator is zero.
    func rationals(_ tag: UInt16, in directory: Directory) -> [Double]? {
        guard let entry = directories[directory]?[tag], entry.type == 5 || entry.type == 10 else { return nil }
        var values: [Double] = []
        for index in 0..<entry.count {
            let position = entry.offset + index * 8
            guard let numerator = uint32(at: position), let denominator = uint32(at: position + 4),
                denominator != 0
            else { return nil }
            values.append(
                entry.type == 5
                    ? Double(numerator) / Double(denominator)
                    : Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator))
            )
        }
        return values
    }

    /// The bytes of an UNDEFINED or BYTE value (a maker note, for one), in place in the block; nil when absent or
    /// otherwise typed.
    func bytes(_ tag: UInt16, in directory: Directory) -> ArraySlice<UInt8>? {
        guard let entry = directories[directory]?[tag], entry.type == 7 || entry.type == 1 else { return nil }
        return tiff[entry.offset..<(entry.offset + entry.count)]
    }

    /// The first BYTE, SHORT or LONG value; nil when absent or otherwise typed.
    func integer(_ tag: UInt16, in directory: Directory) -> Int? {
        directories[directory]?[tag].flatMap(integer)
    }

    private func integer(_ entry: Entry) -> Int? {
        switch entry.type {
        case 1: Int(tiff[entry.offset])
        case 3: uint16(at: entry.offset).map(Int.init)
        case 4, 13: uint32(at: entry.offset).map(Int.init)  // 13: IFD pointer
        default: nil
        }
    }

    /// The entries of the directory at `offset`, skipping any that are unknown-typed or point outside the block.
    private func directory(at offset: Int) -> [UInt16: Entry] {
        guard let entryCount = uint16(at: offset) else { return [:] }
        var entries: [UInt16: Entry] = [:]
        for index in 0..<Int(entryCount) {
            let start = offset + 2 + index * 12
            guard let tag = uint16(at: start), let type = uint16(at: start + 2),
                let count = uint32(at: start + 4), let valueAddress = uint32(at: start + 8)
            else { break }
            guard let size = Self.componentSize(type: type), count > 0 else { continue }
            let length = Int(count) * size
            let valueOffset = length <= 4 ? start + 8 : Int(valueAddress)
            guard valueOffset + length <= tiff.count else { continue }
            entries[tag] = Entry(type: type, count: Int(count), offset: valueOffset)
        }
        return entries
    }

    private static func componentSize(type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1  // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2  // SHORT, SSHORT
        case 4, 9, 11, 13: 4  // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12: 8  // RATIONAL, SRATIONAL, DOUBLE
        default: nil
        }
    }

    private func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= tiff.count else { return nil }
        let (first, second) = (UInt16(tiff[offset]), UInt16(tiff[offset + 1]))
        return isBigEndian ? first << 8 | second : second << 8 | first
    }

    private func uint32(at offset: Int) -> UInt32? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return isBigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
    }
}

/// Tag numbers from the EXIF 2.32 specification.
enum ExifTag {
    static let exifPointer: UInt16 = 0x8769
    static let gpsPointer: UInt16 = 0x8825

    static let dateTimeOriginal: UInt16 = 0x9003
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let subSecTimeOriginal: UInt16 = 0x9291

    static let gpsLatitudeRef: UInt16 = 0x0001
    static let gpsLatitude: UInt16 = 0x0002
    static let gpsLongitudeRef: UInt16 = 0x0003
    static let gpsLongitude: UInt16 = 0x0004
    static let gpsAltitudeRef: UInt16 = 0x0005
    static let gpsAltitude: UInt16 = 0x0006
    static let gpsTimeStamp: UInt16 = 0x0007
    static let gpsDateStamp: UInt16 = 0x001D

    static let make: UInt16 = 0x010F
    static let model: UInt16 = 0x0110
    static let exposureTime: UInt16 = 0x829A
    static let fNumber: UInt16 = 0x829D
    static let photographicSensitivity: UInt16 = 0x8827
    static let focalLength: UInt16 = 0x920A
    static let makerNote: UInt16 = 0x927C
    static let focalLengthIn35mmFilm: UInt16 = 0xA405
    static let lensModel: UInt16 = 0xA434
}
