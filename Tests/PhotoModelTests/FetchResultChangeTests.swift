import Testing
@testable import PhotoModel

struct FetchResultChangeTests {
    @Test(arguments: [
        (["a", "b", "c", "d"], ["a", "c", "d"]),
        (["a", "b", "c"], ["x", "a", "b", "y", "c", "z"]),
        (["a", "b", "c", "d", "e"], ["e", "d", "c", "b", "a"]),
        (["a", "b", "c", "d"], ["b", "x", "d", "a"]),
        ([], ["a", "b"]),
        (["a", "b"], []),
    ])
    func applyingTheDifferenceRebuildsTheNewList(old: [String], new: [String]) {
        let change = FetchResultChange.difference(name: "q", from: old, to: new, changed: [])
        #expect(change.applied(to: old) == new)
        #expect(change.count == new.count)
    }

    @Test func indexesFollowTheContractsCoordinates() {
        let change = FetchResultChange.difference(name: "q", from: ["a", "b", "c", "d"], to: ["a", "x", "c", "b"],
                                                  changed: ["c"])
        #expect(change.removedIndexes == [3])
        #expect(change.insertedIndexes == [1])
        #expect(change.insertedIds == ["x"])
        #expect(change.changedIds == ["c"])
        #expect(change.changedIndexes == [2])
        #expect(change.changedIndexesBefore == [2])
        #expect(change.moves?.count == 1)
        #expect(change.applied(to: ["a", "b", "c", "d"]) == ["a", "x", "c", "b"])
    }

    @Test func randomListsAlwaysRebuildExactly() {
        var generator = SystemRandomNumberGenerator()
        let universe = (0..<30).map { "id\($0)" }
        for _ in 0..<2_000 {
            let old = Array(universe.shuffled(using: &generator).prefix(Int.random(in: 0...20, using: &generator)))
            let new = Array(universe.shuffled(using: &generator).prefix(Int.random(in: 0...20, using: &generator)))
            let changed = Set(universe.filter { _ in Bool.random(using: &generator) })
            let change = FetchResultChange.difference(name: "q", from: old, to: new, changed: changed)
            #expect(change.applied(to: old) == new)
            #expect(Set(change.changedIds ?? []).isSubset(of: changed))
        }
    }

    @Test func unchangedListsGiveAnEmptyChange() {
        #expect(FetchResultChange.difference(name: "q", from: ["a", "b"], to: ["a", "b"], changed: []).isEmpty)
    }
}
