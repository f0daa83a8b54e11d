/// The deep-nesting mode of the fuzz targets that read nested text: a small input stands for text nested up to
/// 131,070 deep, in any of the target's bracket kinds or two of them alternating. Written out, such text would not
/// fit in libFuzzer's `-max_len`, nor would mutation ever reach it; this way every kind is tried at every depth,
/// each parser's limit and far past it.
///
/// Such an input is `marker`, a byte choosing the brackets (low nibble: the first kind; bits 4–6: the kind it
/// alternates with, the same one for a single kind; bit 7: leave them unclosed), the depth halved as a big-endian
/// 16-bit number, then the text nested inside. Any other input is read as it is.
public struct DeepNesting: Sendable {
    /// One kind of nesting: `open` and `close` around each level, `lead` and `trail` once around them all when the
    /// kind comes first (`fileSize IN ` before a predicate's `{`, `<dc:subject>` around an XMP list).
    public struct Bracket: Sendable {
        let open: [UInt8], close: [UInt8], lead: [UInt8], trail: [UInt8]

        public init(_ open: String, _ close: String, lead: String = "", trail: String = "") {
            (self.open, self.close, self.lead, self.trail) = (
                Array(open.utf8), Array(close.utf8), Array(lead.utf8), Array(trail.utf8)
            )
        }
    }

    /// The first byte of an input in this mode: never the first byte of UTF-8 text.
    public static let marker: UInt8 = 0xFE

    let brackets: [Bracket]
    let prefix: [UInt8], suffix: [UInt8]

    /// Nesting of `brackets` (at most 16), inside a document that starts with `prefix` and ends with `suffix`.
    public init(_ brackets: [Bracket], prefix: String = "", suffix: String = "") {
        precondition((1...16).contains(brackets.count))
        (self.brackets, self.prefix, self.suffix) = (brackets, Array(prefix.utf8), Array(suffix.utf8))
    }

    /// The nested text `input` stands for, or nil when it is not in this mode.
    public func expand(_ input: UnsafeRawBufferPointer) -> [UInt8]? {
        guard input.count >= 4, input[0] == Self.marker else { return nil }
        let first = brackets[Int(input[1] & 0x0F) % brackets.count]
        let second = brackets[Int(input[1] >> 4 & 0x07) % brackets.count]
        let isClosed = input[1] & 0x80 == 0
        let depth = (Int(input[2]) << 8 | Int(input[3])) * 2
        var text = prefix + first.lead
        text.reserveCapacity(
            text.count + depth * (first.open.count + first.close.count + second.open.count + second.close.count) / 2
                + input.count + first.trail.count + suffix.count)
        for level in 0..<depth { text += level % 2 == 0 ? first.open : second.open }
        text += input[4...]
        if isClosed {
            for level in (0..<depth).reversed() { text += level % 2 == 0 ? first.close : second.close }
        }
        return text + first.trail + suffix
    }

    /// Calls `body` with the text `input` stands for: its expansion in this mode, else `input` itself.
    public func withText(of input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        guard let expanded = expand(input) else { return body(input) }
        expanded.withUnsafeBytes(body)
    }
}
