/// The files kept from exiv2 (0.27, as Debian ships it), recognised by their first bytes as exiv2 recognises them:
/// its readers of Canon CRW directories, RIFF chunks (AVI, WAV) and ISO media boxes (HEIC, AVIF, CR3, MP4) follow
/// nesting without a depth limit, and a crafted file of a few MB ends the process by exhausting the reading
/// thread's stack (Exiv2 issues 9322, 9414, 9485 for CRW; found the same way for the others); its QuickTime, Matroska
/// and ASF readers are of the same kind. None of those formats but ISO media holds XMP or IPTC for this module, so
/// they are refused whole; an ISO media file is walked here first, without recursion, and refused when it nests
/// deeper than any camera or encoder writes.
enum ExivInputCheck {
    /// How many leading bytes tell the formats apart.
    static let headerLength = 16
    /// How deep the boxes of an ISO media file may nest: HEIC, AVIF and CR3 files nest four or five levels.
    static let maximumBoxDepth = 16

    /// Why the file whose bytes `read(offset, count)` gives (up to `count` of them) must not reach exiv2, or nil.
    static func refusal(size: Int, read: (Int, Int) -> [UInt8]) -> MetadataError? {
        let header = read(0, headerLength)
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            header.count >= offset + text.utf8.count
                && header[offset..<offset + text.utf8.count].elementsEqual(text.utf8)
        }
        if starts("II") || starts("MM"), starts("HEAPCCDR", at: 6) {
            return MetadataError(
                "a Canon CRW file, whose metadata is not read: it holds no XMP or IPTC, and exiv2's reader of its directories has no depth limit"
            )
        }
        if starts("RIFF"), !starts("WEBP", at: 8) {
            return MetadataError(
                "a RIFF file (AVI, WAV), whose metadata is not read: it holds no XMP or IPTC here, and exiv2's reader of its chunks has no depth limit"
            )
        }
        if header.starts(with: [0x1A, 0x45, 0xDF, 0xA3])
            || header.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11])
        {
            return MetadataError(
                "a Matroska or ASF video, whose metadata is not read: exiv2's readers of them have no depth limit")
        }
        let isImageMedia = starts("ftyp", at: 4) || header.starts(with: [0, 0, 0, 0x0C] + Array("JXL ".utf8))
        if isImageMedia, !ISOMediaBoxes.nestWithin(maximumBoxDepth, size: size, read: read) {
            return MetadataError(
                "ISO media boxes nested deeper than \(maximumBoxDepth) levels, which exiv2 would follow without a limit"
            )
        }
        let quickTimeAtoms = ["moov", "mdat", "free", "skip", "wide", "junk", "pnot", "PICT", "pict", "uuid"]
        if !isImageMedia, quickTimeAtoms.contains(where: { starts($0, at: 4) }) {
            return MetadataError(
                "a QuickTime movie, whose metadata is not read: exiv2's reader of its atoms has no depth limit")
        }
        return nil
    }
}

/// The boxes of an ISO base media file (ISO/IEC 14496-12) as exiv2's reader descends into them, walked with a stack
/// of their ends instead of by recursion.
enum ISOMediaBoxes {
    /// Boxes that hold boxes, as exiv2 reads them (and QuickTime's movie, track and media boxes, for a reader that
    /// takes the file as a movie), with the bytes before their first child.
    private static let containers: [String: Int] = [
        "moov": 0, "iprp": 0, "ipco": 0, "meta": 4, "iinf": 6, "trak": 0, "mdia": 0, "minf": 0, "stbl": 0, "dinf": 0,
        "udta": 0, "edts": 0, "mvex": 0, "moof": 0, "traf": 0, "ilst": 0, "tref": 0, "sinf": 0, "schi": 0, "wave": 0,
    ]
    /// Canon's CR3 metadata box, a `uuid` box exiv2 descends into.
    private static let canonUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]

    /// Whether the boxes nest at most `limit` deep, as far as they are well-formed (exiv2 stops at the first that is not).
    static func nestWithin(_ limit: Int, size: Int, read: (Int, Int) -> [UInt8]) -> Bool {
        var ends = [size]
        var position = 0
        while let end = ends.last {
            guard position < end else {
                ends.removeLast()
                continue
            }
            let header = read(position, 32)
            guard end - position >= 8, header.count >= 8 else { return true }
            var length = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            var headerLength = 8
            if length == 1 {
                guard header.count >= 16 else { return true }
                let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large <= UInt64(Int.max) else { return true }
                (length, headerLength) = (Int(large), 16)
            }
            guard length >= headerLength, length <= end - position else { return true }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            var childrenOffset = containers[type]
            if type == "uuid", header.count >= headerLength + 16,
                Array(header[headerLength..<headerLength + 16]) == canonUUID
            {
                childrenOffset = 16
            }
            if let childrenOffset, headerLength + childrenOffset <= length {
                guard ends.count <= limit else { return false }
                ends.append(position + length)
                position += headerLength + childrenOffset
            } else {
                position += length
            }
        }
        return true
    }
}
