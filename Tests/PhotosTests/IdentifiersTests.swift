import Foundation
import PhotoModel
@testable import Photos
import Testing

/// Fetch results keep photolibd's identifiers packed; what they give back and how changes apply stay exact.
struct IdentifiersTests {
    @Test func packedIdentifiersGiveBackTheStringsTheyWereMadeOf() {
        let ids = (0..<50).map { _ in UUID().uuidString.lowercased() }
        let packed = Identifiers(ids)
        #expect(Array(packed) == ids)
        #expect(packed.firstIndex(of: ids[17]) == 17)
        #expect(packed.firstIndex(of: ids[17].uppercased()) == nil)
        for other in ["", "not-a-uuid", ids[0].uppercased(), ids[0] + "0", String(ids[0].dropLast())] {
            #expect(PackedUUID(other) == nil, "\(other)")
        }
        // Any other identifier keeps the whole list as strings.
        let mixed = Identifiers(ids + ["placeholder-7"])
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
            #expect(Array(Identifiers(old).applying(change)) == new, "round \(round)")
            #expect(Array(Identifiers(old).applying(.full(name: "r", ids: new))) == new)
        }
    }
}
