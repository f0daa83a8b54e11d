/// Input nested far deeper than any parser should follow, for the tests that show each parser refuses it.
public enum NestedFixtures {
    /// `open` `depth` times, `inner`, then `close` `depth` times.
    public static func nested(_ open: String, _ inner: String, _ close: String, depth: Int) -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    /// An XMP sidecar whose `rdf:Description` holds `body` (`dc:` and `acme:` are declared).
    public static func sidecar(_ body: String) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:acme="http://example.com/acme/1.0/">
        \(body)
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """
    }

    /// A Canon CRW file whose root directory holds a directory that holds a directory…, `depth` deep. A CIFF heap is
    /// its entries' data, then its directory (an entry count, then 10-byte entries: tag, size, offset), then the
    /// directory's offset in the heap; tag 0x300A is a subdirectory, whose heap is its entry's data.
    public static func canonRaw(depth: Int) -> [UInt8] {
        var heap = littleEndian(UInt16(0)) + littleEndian(UInt32(0))
        for _ in 0..<depth {
            let size = UInt32(heap.count)
            heap +=
                littleEndian(UInt16(1)) + littleEndian(UInt16(0x300A)) + littleEndian(size) + littleEndian(UInt32(0))
                + littleEndian(size)
        }
        let header =
            Array("II".utf8) + littleEndian(UInt32(26)) + Array("HEAPCCDR".utf8) + littleEndian(UInt32(0x0001_0002))
            + [UInt8](repeating: 0, count: 8)
        return header + heap
    }

    /// An ISO media file (HEIC's `ftyp` brand `brand`) whose boxes of type `container` nest `depth` deep, each
    /// holding `lead` before the next (a full box's version and flags, a `uuid` box's identifier).
    public static func isoMedia(brand: String = "heic", container: String, lead: [UInt8] = [], depth: Int) -> [UInt8] {
        var inner: [UInt8] = []
        for _ in 0..<depth {
            inner = bigEndian(UInt32(8 + lead.count + inner.count)) + Array(container.utf8) + lead + inner
        }
        return bigEndian(UInt32(20)) + Array("ftyp\(brand)".utf8) + [0, 0, 0, 0] + Array("mif1".utf8) + inner
    }

    /// A RIFF AVI file whose `LIST` chunks nest `depth` deep.
    public static func riff(depth: Int) -> [UInt8] {
        var inner: [UInt8] = []
        for _ in 0..<depth {
            inner = Array("LIST".utf8) + littleEndian(UInt32(4 + inner.count)) + Array("hdrl".utf8) + inner
        }
        return Array("RIFF".utf8) + littleEndian(UInt32(4 + inner.count)) + Array("AVI ".utf8) + inner
    }

    private static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }

    private static func bigEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian, Array.init)
    }
}
