/// The maker note an iPhone writes in EXIF tag 0x927C, read for the one value the library keeps: the burst.
///
/// The layout (exiftool's Apple.pm and MakerNotes.pm, checked against the bytes of an iPhone 7 photo): "Apple iOS\0",
/// a 2-byte version, "MM" or "II" for the byte order, then one TIFF directory of 12-byte entries whose values,
/// when longer than 4 bytes, lie at offsets counted from the start of the maker note. Only that directory is read
/// (no chains to follow, so no loops); an entry or value outside the note reads as absent. libexiv2 0.27 has no
/// Apple maker note table (its Exif.Photo.MakerNote is an opaque blob), so this reads it here.
struct AppleMakerNote {
    /// Tag numbers of Apple's maker note, as exiftool names them.
    enum Tag {
        /// BurstUUID: the same string in every frame of one burst.
        static let burstUUID: UInt16 = 0x000B
    }

    private static let signature = Array("Apple iOS\0".utf8)
    /// Where the directory starts: after the signature, the version and the byte order.
    private static let directoryOffset = 14

    private let note: ArraySlice<UInt8>
    private let isBigEndian: Bool

    /// Reads a maker note's header; nil unless it is Apple's.
    init?(_ note: ArraySlice<UInt8>) {
        guard note.count >= Self.directoryOffset + 2, note.starts(with: Self.signature) else { return nil }
        self.note = note
        switch (note[note.startIndex + 12], note[note.startIndex + 13]) {
        case (0x4D, 0x4D): isBigEndian = true  // "MM"
        case (0x49, 0x49): isBigEndian = false  // "II"
        default: return nil
        }
    }

    /// BurstUUID, as the camera wrote it; nil when absent, not ASCII-typed, empty, or not a plain printable token.
    var burstIdentifier: String? {
        guard let characters = ascii(Tag.burstUUID) else { return nil }
        let text = characters.prefix { $0 != 0 }
        // Apple writes an uppercase UUID (36 characters); anything unprintable or far longer is not a burst's.
        guard (1...64).contains(text.count), text.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// The value of the ASCII entry `tag`, in place; nil when absent, otherwise typed, or not wholly inside the note.
    private func ascii(_ tag: UInt16) -> ArraySlice<UInt8>? {
        guard let entryCount = uint16(at: Self.directoryOffset) else { return nil }
        for index in 0..<Int(entryCount) {
            let entry = Self.directoryOffset + 2 + index * 12
            guard let entryTag = uint16(at: entry), let type = uint16(at: entry + 2),
                let count = uint32(at: entry + 4).map(Int.init), let address = uint32(at: entry + 8).map(Int.init)
            else { return nil }
            guard entryTag == tag else { continue }
            guard type == 2, count > 0 else { return nil }
            let offset = count <= 4 ? entry + 8 : address
            guard offset + count <= note.count else { return nil }
            return note[(note.startIndex + offset)..<(note.startIndex + offset + count)]
        }
        return nil
    }

    private func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= note.count else { return nil }
        let (first, second) = (UInt16(note[note.startIndex + offset]), UInt16(note[note.startIndex + offset + 1]))
        return isBigEndian ? first << 8 | second : second << 8 | first
    }

    private func uint32(at offset: Int) -> UInt32? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return isBigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
    }
}

extension ExifBlock {
    /// Apple's BurstUUID, from the maker note of an iPhone's burst frame; nil for any other photo.
    var burstIdentifier: String? {
        bytes(ExifTag.makerNote, in: .exif).flatMap(AppleMakerNote.init)?.burstIdentifier
    }
}
