import Foundation
import PhotoModel
import Testing

/// Packed ids on the wire: each UUID's 16 bytes in base64, checked against Foundation's base64 and `UUID`.
struct PackedIDsTests {
    /// The packed text of `ids` made here, and as Foundation makes it.
    private func texts(of ids: [UUID]) -> (ours: String, foundation: String) {
        var bytes: [UInt8] = [], text: [UInt8] = [], encoder = PackedIDEncoder()
        for id in ids {
            withUnsafeBytes(of: id.uuid) { bytes.append(contentsOf: $0) }
            let halves = withUnsafeBytes(of: id.uuid) {
                (UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            }
            encoder.add(high: halves.0, low: halves.1, to: &text)
        }
        encoder.finish(to: &text)
        return (String(decoding: text, as: UTF8.self), Data(bytes).base64EncodedString())
    }

    @Test func idsPackAsFoundationsBase64AndComeBackInOrder() throws {
        // Counts 0 to 7 end on every padding base64 has (a block of three ids is 48 bytes, 64 digits); the encoder
        // writes 3,072 ids at a time.
        for count in [0, 1, 2, 3, 4, 5, 6, 7, 3_071, 3_072, 3_073, 7_000] {
            let ids = (0..<count).map { _ in UUID() }
            let (ours, foundation) = texts(of: ids)
            #expect(ours == foundation, "\(count) ids")
            var text = ours
            let unpacked = try #require(text.withUTF8 { ResultIdentifiers(packedIDs: UnsafeRawBufferPointer($0)) })
            #expect(Array(unpacked) == ids.map { $0.uuidString.lowercased() }, "\(count) ids")
        }
    }

    @Test func aTextThatIsNotWholePackedIdsIsRefused() {
        let (two, _) = texts(of: [UUID(), UUID()])
        let start = String(two.prefix(8))
        let broken: [String: String] = [
            "not whole ids": String(two.dropLast(4)),
            "not whole groups of four digits": String(two.dropLast()),
            "a byte that is not a digit": start + "*" + String(two.dropFirst(9)),
            "padding inside": start + "=" + String(two.dropFirst(9)),
            "a letter outside ASCII": start + "é" + String(two.dropFirst(10)),
        ]
        for (reason, text) in broken {
            var text = text
            #expect(text.withUTF8 { ResultIdentifiers(packedIDs: UnsafeRawBufferPointer($0)) } == nil, "\(reason)")
        }
    }
}
