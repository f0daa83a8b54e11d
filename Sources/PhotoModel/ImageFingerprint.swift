/// A perceptual fingerprint of a picture (CONTRACT §17): 64 bits that stay nearly the same when the picture is
/// re-saved, re-compressed, resized or re-tagged, so that copies lie within a few bits of each other.
public struct ImageFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    public var bits: UInt64

    public init(bits: UInt64) {
        self.bits = bits
    }

    /// The number of bits in which the two differ (their Hamming distance), 0...64.
    public func distance(to other: ImageFingerprint) -> Int {
        (bits ^ other.bits).nonzeroBitCount
    }

    /// The bits as SQLite stores them: one signed 64-bit integer.
    public var storedValue: Int64 { Int64(bitPattern: bits) }

    public init(storedValue: Int64) {
        self.init(bits: UInt64(bitPattern: storedValue))
    }

    public var description: String {
        let hex = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
