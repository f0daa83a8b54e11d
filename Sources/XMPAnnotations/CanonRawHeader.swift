/// Canon's CRW files (CIFF), recognised by their first bytes as exiv2 recognises them, so that they never reach
/// exiv2: its CRW reader (0.27, as Debian ships it) follows directories nested in directories without a depth
/// limit, and a crafted file of a few MB ends the process by exhausting the reading thread's stack (Exiv2 issues
/// 9322, 9414, 9485). Nothing is lost: exiv2 reads neither XMP nor IPTC from a CRW, so it holds no annotations
/// for this module, and its image is decoded by LibRaw in the `photolibd-raw` helper process.
enum CanonRawHeader {
    /// How many leading bytes tell a CRW file: its byte order, header length and `HEAPCCDR` signature.
    static let length = 14

    /// Whether `header`, a file's first bytes, begins a CRW file.
    static func begins(_ header: some Collection<UInt8>) -> Bool {
        let bytes = Array(header.prefix(length))
        guard bytes.count == length, bytes[0] == bytes[1], bytes[0] == UInt8(ascii: "I") || bytes[0] == UInt8(ascii: "M")
        else { return false }
        return bytes[6...].elementsEqual("HEAPCCDR".utf8)
    }

    static let refusal = MetadataError(
        "a Canon CRW file, whose metadata is not read: it holds no XMP or IPTC, and exiv2's reader of its nested directories has no depth limit")
}
