import Foundation
import Testing

@testable import Imaging

private let burstA = "ACDE2A4F-DF41-4BF9-9195-C592C65DD139"
private let burstB = "2C9B5FB3-B6C4-444D-B944-C3BCEBEE4550"

/// Apple's BurstUUID from the maker note: the real iPhone 7 EXIF of `Tests/Fixtures/bursts`, and hand-built notes
/// for what no camera writes.
struct AppleMakerNoteTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/bursts")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// The EXIF block of a JPEG file (its APP1 "Exif" segment), as libvips hands it over.
    static func exifBlock(ofJPEG name: String) throws -> [UInt8] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture(name))))
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let payload = Array(bytes[(position + 4)..<(position + 2 + length)])
            if bytes[position + 1] == 0xE1, payload.starts(with: Array("Exif\0\0".utf8)) { return payload }
            position += 2 + length
        }
        throw ExifSegmentMissing()
    }

    struct ExifSegmentMissing: Error {}

    /// The maker note of a fixture, in place in its EXIF block.
    static func makerNote(ofJPEG name: String) throws -> ArraySlice<UInt8> {
        let block = try #require(ExifBlock(exifBlock(ofJPEG: name)))
        return try #require(block.bytes(ExifTag.makerNote, in: .exif))
    }

    // MARK: - Real frames

    @Test(arguments: [
        ("iphone-burst-a-1.jpg", burstA), ("iphone-burst-a-2.jpg", burstA), ("iphone-burst-a-3.jpg", burstA),
        ("iphone-burst-a-4.heic", burstA), ("iphone-burst-b-1.jpg", burstB),
    ])
    func eachFrameOfAnIPhoneBurstReadsItsBurstUUIDFromFileAndFromMemory(name: String, burst: String) throws {
        let reader = ImageMetadataReader()
        let path = Self.fixture(name)
        let fromFile = try reader.readMetadata(atPath: path)
        #expect(fromFile.burstIdentifier == burst)
        #expect(fromFile.camera.model == "iPhone 7")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let inMemory = EncodedBuffer(count: bytes.count) { $0.copyBytes(from: bytes) }
        #expect(try reader.readMetadata(of: inMemory, atPath: path) == fromFile)
    }

    @Test func aPhotoWithoutAMakerNoteOrWithAnotherCamerasHasNoBurst() throws {
        let fixtures = try Fixtures()
        let reader = ImageMetadataReader()
        #expect(try reader.readMetadata(atPath: fixtures.image("plain.jpg")).burstIdentifier == nil)
        let canon = try fixtures.image("canon.jpg", exif: ["-Make=Canon", "-Model=Canon EOS R5"])
        #expect(try reader.readMetadata(atPath: canon).burstIdentifier == nil)
        // An iPhone photo taken alone: the fixture's EXIF without its burst entry.
        let single = try fixtures.image("single.jpg")
        try fixtures.run(
            "/usr/bin/exiftool",
            [
                "-q", "-overwrite_original", "-tagsFromFile", Self.fixture("iphone-burst-a-1.jpg"), "-all:all",
                "-makernotes", single,
            ])
        let note = try removingBurstEntry(from: Array(Self.makerNote(ofJPEG: "iphone-burst-a-1.jpg")))
        let notePath = try fixtures.write("note.bin", bytes: note)
        try fixtures.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-MakerNotes<=\(notePath)", single])
        let metadata = try reader.readMetadata(atPath: single)
        #expect(metadata.camera.model == "iPhone 7" && metadata.burstIdentifier == nil)
        #expect(try fixtures.run("/usr/bin/exiftool", ["-s3", "-Apple:AEStable", single]).hasPrefix("Yes"))
    }

    /// The note with its BurstUUID entry's tag turned into one no reader knows (0x00FF), the layout unchanged.
    private func removingBurstEntry(from note: [UInt8]) -> [UInt8] {
        var note = note
        let count = Int(note[14]) << 8 | Int(note[15])
        for index in 0..<count where note[16 + index * 12] == 0 && note[17 + index * 12] == 0x0B {
            note[17 + index * 12] = 0xFF
        }
        return note
    }

    // MARK: - Damaged and hostile notes

    @Test func everyTruncationOfARealNoteReadsTheWholeUUIDOrNothing() throws {
        let note = try Array(Self.makerNote(ofJPEG: "iphone-burst-a-1.jpg"))
        let whole = try #require(AppleMakerNote(note[...])?.burstIdentifier)
        #expect(whole == burstA)
        var firstWhole: Int?
        for length in 0...note.count {
            let read = AppleMakerNote(note.prefix(length))?.burstIdentifier
            #expect(read == nil || read == whole, "length \(length)")
            if read != nil, firstWhole == nil { firstWhole = length }
        }
        // Readable exactly from the length that holds the string's last byte: 0x376 + 37.
        #expect(firstWhole == 0x376 + 37)
    }

    @Test func everySingleByteCorruptionOfARealNoteReadsWithoutTrapping() throws {
        let note = try Array(Self.makerNote(ofJPEG: "iphone-burst-a-1.jpg"))
        var unchanged = 0
        for position in note.indices {
            for replacement: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                var corrupted = note
                corrupted[position] = replacement
                let read = AppleMakerNote(corrupted[...])?.burstIdentifier
                if read == burstA { unchanged += 1 }
                if let read { #expect(read.utf8.allSatisfy { (0x21...0x7E).contains($0) } && read.utf8.count <= 64) }
            }
        }
        #expect(unchanged > note.count)  // most bytes are other values: the burst still reads
    }

    @Test(arguments: [false, true])
    func aNoteInEitherByteOrderReadsItsBurstWhetherInlineOrAtAnOffset(bigEndian: Bool) {
        let atOffset = AppleNoteBuilder(
            bigEndian: bigEndian,
            entries: [
                .init(tag: 0x0001, type: 9, count: 1, payload: [0, 0, 0, 4]),
                .init(tag: 0x000B, type: 2, count: 37, payload: Array((burstB + "\0").utf8)),
            ])
        #expect(AppleMakerNote(atOffset.build()[...])?.burstIdentifier == burstB)
        let inline = AppleNoteBuilder(
            bigEndian: bigEndian, entries: [.init(tag: 0x000B, type: 2, count: 4, payload: Array("B7\0\0".utf8))])
        #expect(AppleMakerNote(inline.build()[...])?.burstIdentifier == "B7")
    }

    @Test func aNoteFoundInsideALargerBlockIsReadFromItsOwnStart() {
        let note = AppleNoteBuilder(entries: [
            .init(tag: 0x000B, type: 2, count: 37, payload: Array((burstA + "\0").utf8))
        ])
        let block = Array(repeating: UInt8(0xEE), count: 301) + note.build() + Array(repeating: 0xEE, count: 7)
        #expect(AppleMakerNote(block[301..<(block.count - 7)])?.burstIdentifier == burstA)
    }

    /// Offsets past the end, counts that overflow, entries cut off, other types and values no camera writes.
    @Test(
        arguments: [
            (
                "an offset past the end",
                AppleNoteBuilder(entries: [.init(tag: 0x000B, type: 2, count: 37, offset: 0xFFFF_FF00)])
            ),
            (
                "a value one byte past the end",
                AppleNoteBuilder(entries: [.init(tag: 0x000B, type: 2, count: 5, offset: 28)])
            ),
            (
                "the largest count",
                AppleNoteBuilder(entries: [.init(tag: 0x000B, type: 2, count: 0xFFFF_FFFF, offset: 14)])
            ),
            ("a count of zero", AppleNoteBuilder(entries: [.init(tag: 0x000B, type: 2, count: 0, payload: [])])),
            (
                "more entries than bytes",
                AppleNoteBuilder(
                    declaredCount: 0xFFFF, entries: [.init(tag: 0x0001, type: 9, count: 1, payload: [0, 0, 0, 4])])
            ),
            (
                "an UNDEFINED value",
                AppleNoteBuilder(entries: [.init(tag: 0x000B, type: 7, count: 37, payload: Array((burstA + "\0").utf8))]
                )
            ),
            ("an empty string", AppleNoteBuilder(entries: [.init(tag: 0x000B, type: 2, count: 1, payload: [0])])),
            (
                "a control character",
                AppleNoteBuilder(entries: [.init(tag: 0x000B, type: 2, count: 6, payload: Array("AB\nCD\0".utf8))])
            ),
            (
                "a space",
                AppleNoteBuilder(entries: [.init(tag: 0x000B, type: 2, count: 6, payload: Array("AB CD\0".utf8))])
            ),
            (
                "non-ASCII bytes",
                AppleNoteBuilder(entries: [
                    .init(tag: 0x000B, type: 2, count: 6, payload: [0x41, 0xC3, 0xA9, 0x42, 0x43, 0])
                ])
            ),
            (
                "a string far longer than a UUID",
                AppleNoteBuilder(entries: [
                    .init(
                        tag: 0x000B, type: 2, count: 101, payload: Array(String(repeating: "A", count: 100).utf8) + [0])
                ])
            ),
            (
                "another signature",
                AppleNoteBuilder(
                    signature: "Apple iOS!",
                    entries: [.init(tag: 0x000B, type: 2, count: 37, payload: Array((burstA + "\0").utf8))])
            ),
            (
                "an unknown byte order",
                AppleNoteBuilder(
                    byteOrder: "XX",
                    entries: [.init(tag: 0x000B, type: 2, count: 37, payload: Array((burstA + "\0").utf8))])
            ),
        ] as [(String, AppleNoteBuilder)])
    func aHostileNoteHasNoBurst(_ what: String, builder: AppleNoteBuilder) {
        #expect(AppleMakerNote(builder.build()[...])?.burstIdentifier == nil, "\(what)")
    }

    @Test func aNoteTooShortForItsHeaderIsNoAppleNote() {
        let header = Array("Apple iOS\0\0\u{1}MM".utf8)
        for length in 0...header.count {
            #expect(AppleMakerNote(header.prefix(length)) == nil)
        }
        #expect(AppleMakerNote((header + [0, 0])[...])?.burstIdentifier == nil)
    }

    @Test func anEXIFBlockWhoseMakerNoteIsNotUndefinedOrLiesOutsideTheBlockHasNoBurst() throws {
        let note = AppleNoteBuilder(entries: [
            .init(tag: 0x000B, type: 2, count: 37, payload: Array((burstA + "\0").utf8))
        ]).build()
        #expect(ExifBlock(exifBlock(makerNote: note, type: 7))?.burstIdentifier == burstA)
        #expect(ExifBlock(exifBlock(makerNote: note, type: 2))?.burstIdentifier == nil)
        let cut = exifBlock(makerNote: note, type: 7)
        #expect(ExifBlock(Array(cut.dropLast(1)))?.burstIdentifier == nil)
    }

    /// A big-endian EXIF block: IFD0 pointing at an EXIF directory that holds only the maker note, of `type`.
    private func exifBlock(makerNote note: [UInt8], type: UInt16) -> [UInt8] {
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value) }
        let exifOffset = 8 + 2 + 12 + 4
        let noteOffset = exifOffset + 2 + 12 + 4
        return Array("Exif\0\0MM".utf8) + be16(42) + be32(8)
            + be16(1) + be16(Int(ExifTag.exifPointer)) + be16(4) + be32(1) + be32(exifOffset) + be32(0)
            + be16(1) + be16(Int(ExifTag.makerNote)) + be16(Int(type)) + be32(note.count) + be32(noteOffset) + be32(0)
            + note
    }
}

/// Builds an Apple maker note byte by byte: header, one directory, then the values that do not fit their entries.
struct AppleNoteBuilder: Sendable, CustomStringConvertible {
    struct Entry: Sendable {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        /// The value's bytes, inline when 4 or fewer, else laid out after the directory.
        var payload: [UInt8]?
        /// An offset written as it is, from the note's start, with no value laid out.
        var offset: UInt32?

        init(tag: UInt16, type: UInt16, count: UInt32, payload: [UInt8]) {
            (self.tag, self.type, self.count, self.payload, offset) = (tag, type, count, payload, nil)
        }

        init(tag: UInt16, type: UInt16, count: UInt32, offset: UInt32) {
            (self.tag, self.type, self.count, payload, self.offset) = (tag, type, count, nil, offset)
        }
    }

    var signature = "Apple iOS\0"
    var byteOrder: String?
    var bigEndian = true
    /// The entry count the directory declares, when not the true one.
    var declaredCount: Int?
    var entries: [Entry]

    var description: String { "\(entries.count) entries" }

    func build() -> [UInt8] {
        let order = byteOrder ?? (bigEndian ? "MM" : "II")
        var values: [UInt8] = []
        let valuesStart = 14 + 2 + 12 * entries.count + 4
        var directory = uint16(UInt16(declaredCount ?? entries.count))
        for entry in entries {
            directory += uint16(entry.tag) + uint16(entry.type) + uint32(entry.count)
            if let offset = entry.offset {
                directory += uint32(offset)
            } else if let payload = entry.payload, payload.count <= 4 {
                directory += payload + Array(repeating: 0, count: 4 - payload.count)
            } else if let payload = entry.payload {
                directory += uint32(UInt32(valuesStart + values.count))
                values += payload
            }
        }
        return Array(signature.utf8) + [0, 1] + Array(order.utf8) + directory + uint32(0) + values
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
