/// A result's ids in their packed wire form (`packedIds`): each id, a lowercase UUID, as its 16 bytes (the first
/// hex digit highest), one after another, in standard base64 with padding. A million ids are 21 MB of text this
/// way, against 39 MB as a JSON array of strings, and neither side handles an id's text.
public enum PackedIDs {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// Each byte's value as a base64 digit; 0xFF for a byte that is not one.
    private static let digitValues: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, digit) in alphabet.enumerated() { values[Int(digit)] = UInt8(value) }
        return values
    }()

    /// Appends the text of `bytes`, the ids' 16 bytes each, to `output`.
    public static func append(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        let start = output.count, length = (bytes.count + 2) / 3 * 4
        output.append(contentsOf: repeatElement(0, count: length))
        output.withUnsafeMutableBufferPointer { output in
            func put(_ group: UInt32, digits: Int, at offset: Int) {
                for digit in 0..<4 {
                    output[offset + digit] = digit < digits
                        ? alphabet[Int(group >> (18 - 6 * UInt32(digit)) & 0x3F)] : UInt8(ascii: "=")
                }
            }
            var offset = start, index = 0
            while index + 3 <= bytes.count {
                put(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]), digits: 4, at: offset)
                index += 3
                offset += 4
            }
            switch bytes.count - index {
            case 1: put(UInt32(bytes[index]) << 16, digits: 2, at: offset)
            case 2: put(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8, digits: 3, at: offset)
            default: break
            }
        }
    }

    /// Calls `body` with each id of `text` as its two halves, in order; false, having called nothing, when `text`
    /// is not the packed form of whole ids.
    public static func decode(_ text: UnsafeRawBufferPointer, _ body: (_ high: UInt64, _ low: UInt64) -> Void) -> Bool {
        guard text.count % 4 == 0 else { return false }
        let padding = text.suffix(2).reversed().prefix { $0 == UInt8(ascii: "=") }.count
        let byteCount = text.count / 4 * 3 - padding
        guard byteCount % 16 == 0 else { return false }
        var invalid: UInt8 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: byteCount + 2) { buffer, initialized in
            func group(_ digits: UnsafeRawBufferPointer, at offset: Int) {
                let values = (digitValues[Int(digits[0])], digitValues[Int(digits[1])],
                              digitValues[Int(digits[2])], digitValues[Int(digits[3])])
                invalid |= values.0 | values.1 | values.2 | values.3
                let group = UInt32(values.0) << 18 | UInt32(values.1) << 12 | UInt32(values.2) << 6 | UInt32(values.3)
                buffer[offset] = UInt8(truncatingIfNeeded: group >> 16)
                buffer[offset + 1] = UInt8(truncatingIfNeeded: group >> 8)
                buffer[offset + 2] = UInt8(truncatingIfNeeded: group)
            }
            let groups = text.count / 4, whole = padding > 0 ? groups - 1 : groups
            for index in 0..<whole { group(UnsafeRawBufferPointer(rebasing: text[index * 4..<index * 4 + 4]), at: index * 3) }
            if padding > 0 {
                // The padded last group: its '=' read as zero digits.
                var last = (text[text.count - 4], text[text.count - 3], text[text.count - 2], text[text.count - 1])
                if padding == 2 { last.2 = UInt8(ascii: "A") }
                last.3 = UInt8(ascii: "A")
                withUnsafeBytes(of: last) { group($0, at: whole * 3) }
            }
            initialized = byteCount
        }
        guard invalid & 0xC0 == 0 else { return false }
        bytes.withUnsafeBytes { bytes in
            for offset in stride(from: 0, to: byteCount, by: 16) {
                body(UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
                     UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
            }
        }
        return true
    }
}
