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
