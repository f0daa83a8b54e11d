import Foundation
import CompactJSON
import PhotoModel
import Testing

/// Fetch results keep photolibd's identifiers packed; what they give back and how changes apply stay exact.
struct ResultIdentifiersTests {
    @Test func packedIdentifiersGiveBackTheStringsTheyWereMadeOf() {
        let ids = (0..<50).map { _ in UUID().uuidString.lowercased() }
        let packed = ResultIdentifiers(ids)
        #expect(Array(packed) == ids)
        #expect(packed.firstIndex(of: ids[17]) == 17)
        #expect(packed.firstIndex(of: ids[17].uppercased()) == nil)
        for other in ["", "not-a-uuid", ids[0].uppercased(), ids[0] + "0", String(ids[0].dropLast())] {
            #expect(PackedUUID(other) == nil, "\(other)")
        }
        // Every digit's position, with each byte that is not a lowercase hex digit (and a dash's, with a digit).
        let uuid = Array("0123abcd-4567-89ef-fedc-ba9876543210".utf8)
        #expect(PackedUUID(String(decoding: uuid, as: UTF8.self))?.description == "0123abcd-4567-89ef-fedc-ba9876543210")
        for position in uuid.indices {
            let replacements: [UInt8] = uuid[position] == UInt8(ascii: "-")
                ? [UInt8(ascii: "0"), UInt8(ascii: "a"), UInt8(ascii: "_")]
                : [0x2F, 0x3A, 0x40, 0x41, 0x46, 0x60, 0x67, 0x7F, 0x80, 0xB0, 0xE1, 0x00, UInt8(ascii: "-")]
            for replacement in replacements {
                var broken = uuid
                broken[position] = replacement
                #expect(broken.withUnsafeBytes { PackedUUID(utf8: $0) } == nil, "byte \(replacement) at \(position)")
            }
        }
        // Any other identifier keeps the whole list as strings.
        let mixed = ResultIdentifiers(ids + ["placeholder-7"])
        #expect(Array(mixed) == ids + ["placeholder-7"])
    }

    @Test func changesApplyToPackedListsAsToStrings() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let old = (0..<Int.random(in: 0...30, using: &generator)).map { _ in UUID().uuidString.lowercased() }
            var new = old.filter { _ in Bool.random(using: &generator) }.shuffled(using: &generator)
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                let id = round % 7 == 0 ? "odd-\(UUID())" : UUID().uuidString.lowercased()
                new.insert(id, at: Int.random(in: 0...new.count, using: &generator))
            }
            let change = FetchResultChange.difference(name: "r", from: old, to: new, changed: [])
            #expect(Array(ResultIdentifiers(old).applying(change)) == new, "round \(round)")
            #expect(Array(ResultIdentifiers(old).applying(.full(name: "r", ids: new))) == new)
        }
    }

    @Test func identifiersReadFromJSONPackAsTheyDoFromStringsAndKeepAnyOtherText() throws {
        let ids = (0..<40).map { _ in UUID().uuidString.lowercased() }
        func read(_ text: String) throws -> ResultIdentifiers {
            try Array(text.utf8).withUnsafeBytes { bytes in try JSONReader.read(ResultIdentifiers.self, from: bytes) }
        }
        func array(_ texts: [String]) -> String { "[" + texts.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        #expect(try read(array(ids)) == ResultIdentifiers(ids))
        #expect(try read("[]") == ResultIdentifiers([]))
        // An identifier that does not pack, anywhere in the list, keeps the whole list as text, escapes read.
        let mixed = Array(ids[..<5]) + ["placeholder-7"] + Array(ids[5...]) + [ids[0].uppercased()]
        #expect(Array(try read(array(mixed))) == mixed)
        #expect(Array(try read(#"["caf\u00e9", "\#(ids[1])"]"#)) == ["café", ids[1]])
        #expect(throws: JSONReadError.self) { try read("[1]") }
        #expect(throws: JSONReadError.self) { try read(#"["\#(ids[0])""#) }
    }
}
