import Foundation
import PhotoModel
import Testing

/// Packed ids on the wire: each UUID's 16 bytes in base64, checked against Foundation's base64 and `UUID`.
struct PackedIDsTests {
    /// The packed text of `ids` made here, and as Foundation makes it.
    private func texts(of ids: [UUID]) -> (ours: String, foundation: String) {
        var bytes: [UInt8] = []
        for id in ids { withUnsafeBytes(of: id.uuid) { bytes.append(contentsOf: $0) } }
        var text: [UInt8] = []
        bytes.withUnsafeBytes { PackedIDs.append($0, to: &text) }
        return (String(decoding: text, as: UTF8.self), Data(bytes).base64EncodedString())
    }

    @Test func idsPackAsFoundationsBase64AndComeBackInOrder() throws {
        // Counts 0 to 7 end on every padding base64 has (a block of three ids is 48 bytes, 64 digits).
        for count in [0, 1, 2, 3, 4, 5, 6, 7, 1000] {
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
