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

    @Test func aUUIDWithAnyOtherByteInADigitsPlaceStaysText() {
        let uuid = Array("0123abcd-4567-89ef-fedc-ba9876543210".utf8)
        #expect(MemberID(String(decoding: uuid, as: UTF8.self)) == .uuid(0x0123_abcd_4567_89ef, 0xfedc_ba98_7654_3210))
        let others: [UInt8] = [0x00, 0x2F, 0x3A, 0x40, 0x41, 0x46, 0x47, 0x60, 0x67, 0x7F, 0x80, 0xB0, 0xE1, 0xFF]
        for position in uuid.indices where uuid[position] != UInt8(ascii: "-") {
            for other in others {
                var text = uuid
                text[position] = other
                let member = text.withUnsafeBytes { MemberID(utf8: $0) }
                #expect(member == .text(String(decoding: text, as: UTF8.self)))
            }
        }
    }

    @Test func insertsAndRemovesKeepTheQueryOrder() {
        var generator = SystemRandomNumberGenerator()
        var result = SortedResult<SortedEntry>(sorted: [], ascending: [false])
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
        expected.sort(by: SortedEntry.queryOrder(ascending: [false]))
        #expect(result.ids == expected.map(\.id.string))
        #expect(result.count == expected.count)
        #expect(zip(expected, expected.dropFirst()).allSatisfy { $0.key[0].compare($1.key[0]) >= 0 })
        #expect(expected.allSatisfy { result.entry(for: $0.id) == $0 })
    }

    /// Keys as SQLite orders them: null, then numbers (minus zero is zero), with UUIDs breaking ties.
    static let keys: [SortValue] = [.null, .number(-.infinity), .number(-1e300), .number(-2.5), .number(-0.0), .number(0),
                                    .number(.leastNonzeroMagnitude), .number(1), .number(1.5), .number(4_102_444_800), .number(.infinity)]

    @Test func packedEntriesOrderAsTheGeneralOnes() throws {
        let ids = (0..<3).map { _ in MemberID(UUID().uuidString.lowercased()) }
        let general = Self.keys.flatMap { key in ids.map { SortedEntry(key: .single(key), id: $0) } }
        for ascending in [true, false] {
            let generalOrder = SortedEntry.queryOrder(ascending: [ascending])
            let packedOrder = PackedEntry.queryOrder(ascending: [ascending])
            for lhs in general {
                for rhs in general {
                    #expect(generalOrder(lhs, rhs) == packedOrder(try #require(PackedEntry(lhs)), try #require(PackedEntry(rhs))))
                }
            }
        }
        for entry in general {
            let unpacked = SortedEntry(try #require(PackedEntry(entry)), termCount: 1)
            #expect(unpacked.id == entry.id && unpacked.key[0].compare(entry.key[0]) == 0)
        }
    }

    @Test func onlyUUIDsWithOneNumberKeyArePacked() {
        let uuid = MemberID(UUID().uuidString.lowercased())
        #expect(PackedEntry(SortedEntry(key: .multiple([]), id: uuid)) != nil)
        #expect(PackedEntry(SortedEntry(key: .single(.text("2024")), id: uuid)) == nil)
        #expect(PackedEntry(SortedEntry(key: .multiple([.number(1), .number(2)]), id: uuid)) == nil)
        #expect(PackedEntry(SortedEntry(key: .single(.number(1)), id: MemberID("photo-1"))) == nil)
    }

    @Test func packedIdOrderSortsAnyNumberOfEntries() throws {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 1_000, 70_000] {
            let entries = try (0..<count).map { index in
                // Some ids share their leading bits, as a bucket's do.
                let high = index % 7 == 0 ? UInt64(index) : generator.next()
                let id = MemberID.uuid(high, generator.next())
                return try #require(PackedEntry(SortedEntry(key: .single(.number(Double(index))), id: id)))
            }
            let sorted = PackedEntry.sortedByID(entries)
            #expect(sorted == entries.sorted(by: PackedEntry.idOrder))
        }
    }

    /// 150,000 members build the result's two lists on two cores.
    @Test(arguments: [10_000, 150_000])
    func aPackedResultFindsItsMembersById(count: Int) throws {
        let entries = try (0..<count).map { index in
            try #require(PackedEntry(SortedEntry(key: .single(.number(Double(index / 3))), id: MemberID(UUID().uuidString.lowercased()))))
        }.sorted(by: PackedEntry.queryOrder(ascending: [true]))
        var result = SortedResult(sorted: entries, ascending: [true])
        #expect(entries.allSatisfy { result.entry(for: $0.id) == $0 })
        #expect(result.entry(for: MemberID(UUID().uuidString.lowercased())) == nil)
        #expect(result.entry(for: MemberID("photo-1")) == nil)
        #expect(result.remove(entries[4_321]) == 4_321)
        #expect(result.entry(for: entries[4_321].id) == nil && result.count == count - 1)
        #expect(result.insert(entries[4_321]) == 4_321)
        #expect(result.ids == entries.map(\.id.string))
    }
}
