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
        func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
            withUnsafeBytes(of: value.littleEndian, Array.init)
        }
        var heap = littleEndian(UInt16(0)) + littleEndian(UInt32(0))
        for _ in 0..<depth {
            let size = UInt32(heap.count)
            heap += littleEndian(UInt16(1)) + littleEndian(UInt16(0x300A)) + littleEndian(size) + littleEndian(UInt32(0))
                + littleEndian(size)
        }
        let header = Array("II".utf8) + littleEndian(UInt32(26)) + Array("HEAPCCDR".utf8) + littleEndian(UInt32(0x0001_0002))
            + [UInt8](repeating: 0, count: 8)
        return header + heap
    }
}
