import PhotoLibrary
@testable import PhotolibWeb
import Testing

/// The sections of a view and what the daemon's change details do to them.
struct GalleryViewTests {
    static func tile(_ id: String, day: String) -> GalleryTile {
        GalleryTile(Asset(id: id, mediaType: .image, pixelWidth: 300, pixelHeight: 200,
                          creationDate: Timestamp(rfc3339: day + "T12:00:00Z"), modificationDate: nil,
                          addedDate: Timestamp(secondsSince1970: 0), location: nil, originalFilename: "\(id).jpg", fileSize: 1))
    }

    static func store(_ days: [(String, String)]) -> TileStore {
        Dictionary(uniqueKeysWithValues: days.map { ($0.0, tile($0.0, day: $0.1)) })
    }

    @Test func aDaysAssetsMakeOneSectionInTheViewsOrder() {
        let tiles = Self.store([("a", "2024-05-03"), ("b", "2024-05-03"), ("c", "2024-05-01"), ("d", "2024-05-01")])
        let view = GalleryView(ids: ["a", "b", "c", "d"], grouping: .day, token: "t1", tiles: tiles)
        #expect(view.sections.map(\.key) == ["2024-05-03", "2024-05-01"])
        #expect(view.sections.map(\.count) == [2, 2])
    }

    @Test func anInsertionChangesOnlyItsDayAndAddsADayWhenNeeded() {
        var tiles = Self.store([("a", "2024-05-03"), ("c", "2024-05-01")])
        var view = GalleryView(ids: ["a", "c"], grouping: .day, token: "t1", tiles: tiles)
        let change = FetchResultChange(name: "timeline", count: 3, hasIncrementalChanges: true, insertedIndexes: [1], insertedIds: ["b"])
        let before = view.keysTouched(before: change, tiles: tiles)
        tiles["b"] = Self.tile("b", day: "2024-05-02")
        let update = view.apply(change, touchedBefore: before, token: "t2", tiles: tiles)
        #expect(view.ids == ["a", "b", "c"])
        #expect(update.sectionsChanged)
        #expect(update.changedKeys == ["2024-05-02"])
        #expect(view.sectionsChanged(since: "t1") == ["2024-05-02"])
        #expect(view.sectionsChanged(since: "t2") == [])
        #expect(view.sectionsChanged(since: "unknown") == nil)
    }

    @Test func aRemovalEmptiesItsDayAndTheDayGoes() {
        let tiles = Self.store([("a", "2024-05-03"), ("c", "2024-05-01")])
        var view = GalleryView(ids: ["a", "c"], grouping: .day, token: "t1", tiles: tiles)
        let change = FetchResultChange(name: "timeline", count: 1, hasIncrementalChanges: true, removedIndexes: [0])
        let update = view.apply(change, touchedBefore: view.keysTouched(before: change, tiles: tiles), token: "t2", tiles: tiles)
        #expect(view.sections.map(\.key) == ["2024-05-01"])
        #expect(update.sectionsChanged)
        #expect(update.changedKeys.isEmpty)
    }

    @Test func aChangedAssetTouchesItsSectionWithoutChangingTheIndex() {
        var tiles = Self.store([("a", "2024-05-03"), ("c", "2024-05-01")])
        var view = GalleryView(ids: ["a", "c"], grouping: .day, token: "t1", tiles: tiles)
        let change = FetchResultChange(name: "timeline", count: 2, hasIncrementalChanges: true, changedIndexes: [1], changedIds: ["c"],
                                       changedIndexesBefore: [1])
        let before = view.keysTouched(before: change, tiles: tiles)
        tiles["c"]?.isFavorite = true
        let update = view.apply(change, touchedBefore: before, token: "t2", tiles: tiles)
        #expect(!update.sectionsChanged)
        #expect(update.changedKeys == ["2024-05-01"])
    }

    @Test func anAlbumsRunsAfterAnInsertionAllChange() {
        let ids = (0..<250).map { "a\($0)" }
        var tiles = Self.store(ids.map { ($0, "2024-05-01") })
        var view = GalleryView(ids: ids, grouping: .run(length: 120), token: "t1", tiles: tiles)
        #expect(view.sections.map(\.count) == [120, 120, 10])
        let change = FetchResultChange(name: "album", count: 251, hasIncrementalChanges: true, insertedIndexes: [130], insertedIds: ["new"])
        let before = view.keysTouched(before: change, tiles: tiles)
        tiles["new"] = Self.tile("new", day: "2024-06-01")
        let update = view.apply(change, touchedBefore: before, token: "t2", tiles: tiles)
        #expect(view.sections.map(\.count) == [120, 120, 11])
        #expect(update.changedKeys == ["1", "2"])
    }

    @Test func applyingEveryChangeGivesTheSectionsOfAFreshView() {
        var ids = (0..<40).map { "p\($0)" }
        var tiles = Self.store(ids.enumerated().map { ($1, "2024-05-\(String(format: "%02d", 28 - $0 / 3))") })
        var view = GalleryView(ids: ids, grouping: .day, token: "t0", tiles: tiles)
        var generator = SystemRandomNumberGenerator()
        for step in 1...30 {
            var next = ids
            if !next.isEmpty, Bool.random(using: &generator) { next.remove(at: Int.random(in: 0..<next.count, using: &generator)) }
            let id = "n\(step)"
            tiles[id] = Self.tile(id, day: "2024-05-\(String(format: "%02d", Int.random(in: 1...28, using: &generator)))")
            // Newest first, as the timeline's query orders them.
            next.append(id)
            next.sort { (tiles[$0]!.day, $0) > (tiles[$1]!.day, $1) }
            let change = FetchResultChange.difference(name: "timeline", from: ids, to: next, changed: [])
            _ = view.apply(change, touchedBefore: view.keysTouched(before: change, tiles: tiles), token: "t\(step)", tiles: tiles)
            ids = next
            let fresh = GalleryView(ids: ids, grouping: .day, token: "t\(step)", tiles: tiles)
            #expect(view.sections == fresh.sections)
        }
    }
}
