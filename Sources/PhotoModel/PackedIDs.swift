/// A result's ids in their packed wire form (`packedIds`): each id, a lowercase UUID, as its 16 bytes (the first
/// hex digit highest), one after another, in standard base64 with padding. A million ids are 21 MB of text this
/// way, against 39 MB as a JSON array of strings, and neither side handles an id's text.
public enum PackedIDs {
    fileprivate static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// Each byte's value as a base64 digit; 0xFF for a byte that is not one.
    private static let digitValues: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, digit) in alphabet.enumerated() { values[Int(digit)] = UInt8(value) }
        return values
    }()

    /// Calls `body` with each id of `text` as its two halves, in order; false when `text` is not the packed form
    /// of whole ids (`body` may have had the ids before the fault).
    public static func decode(_ text: UnsafeRawBufferPointer, _ body: (_ high: UInt64, _ low: UInt64) -> Void) -> Bool {
        guard text.count % 4 == 0 else { return false }
        let padding = text.suffix(2).reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard (text.count / 4 * 3 - padding) % 16 == 0 else { return false }
        var invalid: UInt8 = 0
        // Three ids are 64 digits: decoded a block at a time on the stack; the last, shorter block with its
        // padding read as zero digits.
        digitValues.withUnsafeBufferPointer { values in
            withUnsafeTemporaryAllocation(byteCount: 64 + 48, alignment: 8) { scratch in
                let tail = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<64])
                let block = UnsafeMutableRawBufferPointer(rebasing: scratch[64...])
                func emit(_ ids: Int) {
                    for offset in stride(from: 0, to: ids * 16, by: 16) {
                        body(UInt64(bigEndian: block.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
                             UInt64(bigEndian: block.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
                    }
                }
                var start = 0
                while text.count - start >= 64 {
                    decodeGroups(UnsafeRawBufferPointer(rebasing: text[start..<start + 64]), values, into: block, invalid: &invalid)
                    emit(3)
                    start += 64
                }
                guard start < text.count else { return }
                let rest = text.count - start
                tail.copyMemory(from: UnsafeRawBufferPointer(rebasing: text[start...]))
                for index in rest - padding..<rest { tail[index] = UInt8(ascii: "A") }
                decodeGroups(UnsafeRawBufferPointer(rebasing: tail[0..<rest]), values, into: block, invalid: &invalid)
                emit((rest / 4 * 3 - padding) / 16)
            }
        }
        return invalid & 0xC0 == 0
    }

    /// Decodes whole groups of four digits into `bytes`; a byte that is not a digit sets a high bit of `invalid`.
    private static func decodeGroups(_ digits: UnsafeRawBufferPointer, _ values: UnsafeBufferPointer<UInt8>,
                                     into bytes: UnsafeMutableRawBufferPointer, invalid: inout UInt8) {
        var output = 0
        for start in stride(from: 0, to: digits.count, by: 4) {
            let first = values[Int(digits[start])], second = values[Int(digits[start + 1])]
            let third = values[Int(digits[start + 2])], fourth = values[Int(digits[start + 3])]
            invalid |= first | second | third | fourth
            let group = UInt32(first) << 18 | UInt32(second) << 12 | UInt32(third) << 6 | UInt32(fourth)
            bytes[output] = UInt8(truncatingIfNeeded: group >> 16)
            bytes[output + 1] = UInt8(truncatingIfNeeded: group >> 8)
            bytes[output + 2] = UInt8(truncatingIfNeeded: group)
            output += 3
        }
    }
}

/// Writes ids in their packed form as they come, a block of them at a time, at the end of a text.
public struct PackedIDEncoder {
    /// 1,024 blocks of three ids: a whole number of base64 groups, so only the last block is padded.
    private static let blockBytes = 48 * 1_024
    private var staged: [UInt8]
    private var stagedCount = 0

    public init() {
        staged = [UInt8](repeating: 0, count: Self.blockBytes)
    }

    /// Adds the id whose halves are `high` and `low`.
    public mutating func add(high: UInt64, low: UInt64, to output: inout [UInt8]) {
        staged.withUnsafeMutableBytes { staged in
            staged.storeBytes(of: high.bigEndian, toByteOffset: stagedCount, as: UInt64.self)
            staged.storeBytes(of: low.bigEndian, toByteOffset: stagedCount + 8, as: UInt64.self)
        }
        stagedCount += 16
        if stagedCount == Self.blockBytes { flush(to: &output) }
    }

    /// Writes what is staged, padded: call once, after the last id.
    public mutating func finish(to output: inout [UInt8]) {
        flush(to: &output)
    }

    private mutating func flush(to output: inout [UInt8]) {
        let start = output.count, count = stagedCount
        output.append(contentsOf: repeatElement(0, count: (count + 2) / 3 * 4))
        PackedIDs.alphabet.withUnsafeBufferPointer { alphabet in
            staged.withUnsafeBufferPointer { bytes in
                output.withUnsafeMutableBufferPointer { output in
                    var offset = start, index = 0
                    func put(_ group: UInt32, digits: Int) {
                        for digit in 0..<4 {
                            output[offset + digit] = digit < digits
                                ? alphabet[Int(group >> (18 - 6 * UInt32(digit)) & 0x3F)] : UInt8(ascii: "=")
                        }
                    }
                    while index + 3 <= count {
                        let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                        output[offset] = alphabet[Int(group >> 18)]
                        output[offset + 1] = alphabet[Int(group >> 12 & 0x3F)]
                        output[offset + 2] = alphabet[Int(group >> 6 & 0x3F)]
                        output[offset + 3] = alphabet[Int(group & 0x3F)]
                        index += 3
                        offset += 4
                    }
                    switch count - index {
                    case 1: put(UInt32(bytes[index]) << 16, digits: 2)
                    case 2: put(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8, digits: 3)
                    default: break
                    }
                }
            }
        }
        stagedCount = 0
    }
}
