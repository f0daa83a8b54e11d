import Foundation
import Testing
@testable import LibraryStore

/// The compact members of observed results keep the order and text of the ids they hold.
@Suite struct SortedResultTests {
    @Test func uuidIdsAreHeldCompactlyAndOrderAsTheirText() {
        let ids = (0..<2_000).map { _ in UUID().uuidString.lowercased() } + ["00000000-0000-0000-0000-000000000000",
                                                                           "ffffffff-ffff-ffff-ffff-ffffffffffff"]
        let members = ids.map(MemberID.init)
        #expect(members.allSatisfy { if case .uuid = $0 { true } else { false } })
        #expect(members.map(\.string) == ids)
        let byText = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(members.sorted { $0.precedes($1) }.map(\.string) == byText)
    }

    @Test func otherIdsStayTextAndOrderAmongUUIDsAsText() {
        let uuid = UUID().uuidString.lowercased()
        let others = [uuid.uppercased(), String(uuid.dropLast()), uuid + "0", uuid.replacingOccurrences(of: "-", with: "_"),
                      "", "photo-1", "0", "zzzz"]
        for other in others {
            #expect(MemberID(other) == .text(other))
        }
        let mixed = (others + [uuid, "10000000-0000-0000-0000-000000000000"]).map(MemberID.init)
        let byText = mixed.map(\.string).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(mixed.sorted { $0.precedes($1) }.map(\.string) == byText)
    }

    @Test func insertsAndRemovesKeepTheQueryOrder() {
        var generator = SystemRandomNumberGenerator()
        var result = SortedResult(sorted: [], ascending: [false])
        var expected: [SortedEntry] = []
        for _ in 0..<5_000 {
            let entry = SortedEntry(key: .single(.number(Double(generator.next() % 50))),
                                    id: MemberID(UUID().uuidString.lowercased()))
            if !expected.isEmpty, generator.next() % 3 == 0 {
                let victim = expected.remove(at: Int(generator.next() % UInt64(expected.count)))
                #expect(result.remove(victim) != nil)
            }
            result.insert(entry)
            expected.append(entry)
        }
        expected.sort { result.precedes($0, $1) }
        #expect(result.ids == expected.map(\.id.string))
        #expect(result.count == expected.count)
        #expect(zip(expected, expected.dropFirst()).allSatisfy { $0.key[0].compare($1.key[0]) >= 0 })
    }
}
