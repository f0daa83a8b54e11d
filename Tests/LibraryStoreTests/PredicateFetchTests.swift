import Foundation
import PhotoModel
import PredicateQuery
import Testing
@testable import LibraryStore

/// Predicates compiled to SQL select exactly what the predicate's own evaluation selects.
struct PredicateFetchTests {
    /// Assets with varied values: accents and case in names, missing dates, bursts, favorites, hidden ones.
    private static func makeLibrary() async throws -> (LibraryDatabase, [Asset]) {
        let (database, _) = try makeDatabase()
        let names = ["IMG_0001.JPG", "img_0002.jpg", "Crème Brûlée.heic", "CREME brulee.HEIC", "50%_off*.png", "a?b.gif",
                     "résumé.tiff", "Zebra.jpeg", "zebra.JPEG", "[bracket].jpg", "back\\slash.jpg", "ß.png"]
        var drafts: [AssetDraft] = []
        for (number, name) in names.enumerated() {
            var asset = draft(name, created: number % 4 == 3 ? nil : "2024-0\(number % 9 + 1)-1\(number % 10)T0\(number % 10):00:00+0\(number % 3):00",
                              width: 1000 + number * 500, height: 600 + (number % 3) * 700)
            asset.mediaType = [MediaType.image, .video, .audio][number % 3]
            asset.mediaSubtypes = MediaSubtypes(rawValue: [0, 1, 4, 8, 12, 1 << 17][number % 6])
            asset.duration = Double(number % 4) * 1.5
            asset.burstIdentifier = number % 5 == 0 ? "burst-\(number % 2)" : nil
            asset.resources[0].fileSize = Int64(number * 1_000)
            asset.annotations = Annotations(rating: number % 7 - 1, keywords: [["cat"], ["Places|Paris", "cat"], [], ["Beach"]][number % 4],
                                            title: number % 3 == 0 ? nil : "Title \(number)",
                                            caption: number % 2 == 0 ? "At the beach, no. \(number)" : nil)
            drafts.append(asset)
        }
        let ids = try await database.insert(drafts)
        _ = try await database.performChanges(ids.indices.compactMap { number in
            switch number % 4 {
            case 1: .updateAsset(target: ids[number], AssetUpdate(isFavorite: true))
            case 2: .updateAsset(target: ids[number], AssetUpdate(isHidden: true, location: .set(Location(latitude: 1, longitude: 2))))
            default: nil
            }
        })
        let all = try await database.fetchAssets(everything).assets
        return (database, all)
    }

    private static let everything = AssetQuery(includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)

    private static func value(of asset: Asset, _ key: PredicateKey) -> PredicateValue? {
        switch key.name {
        case "mediaType": .integer(Int64(asset.mediaType.photoKitValue))
        case "mediaSubtypes": .integer(Int64(asset.mediaSubtypes.rawValue))
        case "creationDate": asset.creationDate.map { .real($0.secondsSince1970) }
        case "modificationDate": asset.modificationDate.map { .real($0.secondsSince1970) }
        case "addedDate": .real(asset.addedDate.secondsSince1970)
        case "pixelWidth": .integer(Int64(asset.pixelWidth))
        case "pixelHeight": .integer(Int64(asset.pixelHeight))
        case "duration": .real(asset.duration)
        case "isFavorite": .boolean(asset.isFavorite)
        case "isHidden": .boolean(asset.isHidden)
        case "burstIdentifier": asset.burstIdentifier.map { .text($0) }
        case "originalFilename": .text(asset.originalFilename)
        case "fileSize": .integer(asset.fileSize)
        case "rating": .integer(Int64(asset.annotations.rating))
        case "keywords": .texts(asset.annotations.keywords)
        case "title": asset.annotations.title.map { .text($0) }
        case "caption": asset.annotations.caption.map { .text($0) }
        default: nil
        }
    }

    private func ids(_ database: LibraryDatabase, _ predicate: String) async throws -> Set<String> {
        var query = Self.everything
        query.predicate = predicate
        return Set(try await database.fetchAssets(query, pageSize: 1_000).assets.map(\.id))
    }

    @Test(arguments: [
        ("ANY keywords == 'cat'", 6),
        ("'Places|Paris' IN keywords AND rating >= 0", 3),
        ("caption CONTAINS[c] 'beach' AND NOT ANY keywords == 'Beach'", 6),
        ("originalFilename ==[cd] 'creme brulee.heic'", 2),
        ("originalFilename LIKE '50%_off\\\\*.png'", 1),
        ("originalFilename CONTAINS '?'", 1),
        ("originalFilename BEGINSWITH '['", 1),
        ("originalFilename LIKE[c] 'zebra.*'", 2),
        ("originalFilename ENDSWITH 'slash.jpg'", 1),
        ("originalFilename ==[c] 'SS.PNG'", 1),
        ("burstIdentifier != nil", 3),
        ("burstIdentifier == 'burst-0' OR burstIdentifier == nil", 11),
        ("creationDate == nil", 3),
        ("NOT creationDate > '2000-01-01T00:00:00Z'", 3),
        ("mediaType == 2", 4),
        ("mediaType IN {'image', 3}", 8),
        ("mediaSubtypes CONTAINS 'photoScreenshot'", 4),
        ("(mediaSubtypes & 0x20000) != 0", 2),
        ("isFavorite == YES AND isHidden == NO", 3),
        ("isHidden == YES", 3),
        ("pixelWidth BETWEEN {2000, 4000}", 5),
        ("duration > 1", 9),
        ("fileSize IN {0, 1000, 99}", 2),
        ("originalFilename == \"'); DROP TABLE asset; --\"", 0),
    ])
    func selectsWhatThePredicateSays(_ predicate: String, _ expected: Int) async throws {
        let (database, all) = try await Self.makeLibrary()
        let selected = try await ids(database, predicate)
        #expect(selected.count == expected)
        let parsed = try QueryPredicate(parsing: predicate, schema: .assets)
        #expect(selected == Set(all.filter { asset in parsed.evaluate { Self.value(of: asset, $0) } }.map(\.id)))
        #expect(try await database.fetchAssets(Self.everything).count == 12)
    }

    @Test func randomPredicatesSelectWhatTheirEvaluationSelects() async throws {
        let (database, all) = try await Self.makeLibrary()
        var generator = PredicateGenerator(assets: all)
        for _ in 0..<1_500 {
            let text = generator.predicate(depth: 0)
            let parsed = try QueryPredicate(parsing: text, schema: .assets)
            let expected = Set(all.filter { asset in parsed.evaluate { Self.value(of: asset, $0) } }.map(\.id))
            let selected = try await ids(database, text)
            #expect(selected == expected, "\(text)")
            if selected != expected { break }
        }
    }

    @Test func sortsByEveryPredicateKey() async throws {
        let (database, all) = try await Self.makeLibrary()
        for key in PredicateSchema.assets.keys.values where key.type != .textList {
            var query = Self.everything
            query.sort = [SortDescriptor(key: key.name, ascending: false)]
            let sorted = try await database.fetchAssets(query).assets
            #expect(sorted.count == all.count)
            let values = sorted.map { Self.value(of: $0, key) }
            for (earlier, later) in zip(values, values.dropFirst()) {
                switch (earlier, later) {
                case let (earlier?, later?): #expect(earlier.order(comparedTo: later) >= 0, "\(key.name)")
                case (nil, .some): Issue.record("nil sorts last when descending by \(key.name)")
                default: break
                }
            }
        }
    }

    /// Hostile predicates that once reached SQLite as patterns it refused ("LIKE or GLOB pattern too complex").
    @Test func hostilePatternsGetResultsOrInvalidPredicateNamingTheLimit() async throws {
        let (database, all) = try await Self.makeLibrary()
        #expect(try await ids(database, "originalFilename LIKE '" + String(repeating: "*", count: 100_000) + "'").count == all.count)
        #expect(try await ids(database, "originalFilename CONTAINS[cd] '" + String(repeating: "\u{e9}", count: 1_000) + "'").isEmpty)
        for (operation, length) in [("CONTAINS", 999_000), ("BEGINSWITH", 300_000)] {
            let predicate = "originalFilename \(operation) '" + String(repeating: "x", count: length) + "'"
            await #expect(throws: LibraryError.invalidPredicate(
                reason: "pattern longer than 1000 characters at position \(operation.count + 18)")) {
                try await ids(database, predicate)
            }
        }
        let conjunction = (0..<20_000).map { "pixelWidth > \($0)" }.joined(separator: " AND ")
        await #expect(throws: LibraryError.invalidPredicate(reason: "more than 1000 comparisons at position 20890")) {
            try await ids(database, conjunction)
        }
    }

    @Test func refusalsNameThePositionAndWriteNothing() async throws {
        let (database, _) = try await Self.makeLibrary()
        await #expect(throws: LibraryError.invalidPredicate(reason: "pixelWidth needs a number at position 13")) {
            try await database.fetchAssets(AssetQuery(predicate: "pixelWidth > 'abc'"))
        }
        await #expect(throws: LibraryError.invalidPredicate(reason: "unknown key 'foo' at position 0")) {
            try await database.fetchCollections(CollectionQuery(predicate: "foo == 1"))
        }
    }
}

/// Random valid asset predicates built from the values the assets hold, so that they select something.
private struct PredicateGenerator {
    let assets: [Asset]
    var random = SystemRandomNumberGenerator()

    mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    mutating func predicate(depth: Int) -> String {
        switch depth < 3 ? random.next() % 5 : 0 {
        case 1: return "(\(predicate(depth: depth + 1)) AND \(predicate(depth: depth + 1)))"
        case 2: return "(\(predicate(depth: depth + 1)) OR \(predicate(depth: depth + 1)))"
        case 3: return "NOT \(predicate(depth: depth + 1))"
        default: return comparison()
        }
    }

    mutating func comparison() -> String {
        let asset = pick(assets)
        let ordering = pick(["==", "!=", "<", "<=", ">", ">="])
        switch random.next() % 14 {
        case 12:
            return "rating \(ordering) \(asset.annotations.rating + pick([-1, 0, 1]))"
        case 13:
            return pick(["ANY keywords == 'cat'", "'Places|Paris' IN keywords", "ANY keywords BEGINSWITH[c] 'places|'",
                         "NONE keywords == 'cat'", "ANY keywords IN {'Beach', 'dog'}", "keywords CONTAINS 'Beach'",
                         "caption CONTAINS[c] 'BEACH'", "title == nil", "title ENDSWITH '1'", "ANY keywords ==[c] 'beach'"])
        case 0:
            return "pixelWidth \(ordering) \(asset.pixelWidth + pick([-1, 0, 1]))"
        case 1:
            return "fileSize BETWEEN {\(asset.fileSize), \(asset.fileSize + Int64(pick([0, 2_000])))}"
        case 2:
            return "duration \(ordering) \(asset.duration + pick([-0.5, 0, 0.5]))"
        case 3:
            guard let date = asset.creationDate else { return pick(["creationDate == nil", "creationDate != nil"]) }
            return "creationDate \(ordering) '\(date.rfc3339)'"
        case 4:
            return "mediaType \(pick(["==", "!="])) \(pick(["'image'", "'video'", "2", "3"]))"
        case 5:
            return pick(["mediaSubtypes CONTAINS 'photoLive'", "(mediaSubtypes & 5) != 0", "mediaSubtypes == 0",
                         "'photoPanorama' IN mediaSubtypes"])
        case 6:
            return "\(pick(["isFavorite", "isHidden"])) \(pick(["==", "!="])) \(pick(["YES", "NO", "TRUE", "0"]))"
        case 7:
            return pick(["burstIdentifier == nil", "burstIdentifier != nil", "burstIdentifier == 'burst-0'",
                         "burstIdentifier != 'burst-1'", "burstIdentifier IN {nil, 'burst-1'}", "burstIdentifier IN {'burst-0'}"])
        case 8:
            let name = asset.originalFilename
            let part = String(name.prefix(Int(random.next() % UInt64(name.count + 1))))
            let escaped = part.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            let operation = pick(["BEGINSWITH", "CONTAINS", "ENDSWITH", "==", "<"])
            let options = operation == "<" ? "" : pick(["", "[c]", "[d]", "[cd]"])
            return "originalFilename \(operation)\(options) '\(escaped)'"
        case 9:
            return "originalFilename LIKE\(pick(["", "[c]", "[cd]"])) '\(pick(["*.jpg", "IMG_????.*", "*e*", "?*", "*"]))'"
        case 10:
            return "addedDate \(ordering) '\(asset.addedDate.rfc3339)'"
        default:
            return pick(["TRUEPREDICATE", "FALSEPREDICATE", "modificationDate == nil", "pixelHeight IN {600, 1300, 7}"])
        }
    }
}

/// Following a result whose predicate does not parse fails with the reason, and follows nothing.
@Test func trackingAnInvalidPredicateThrowsAndFollowsNothing() async throws {
    let (database, _) = try makeDatabase()
    _ = try await database.insert([draft("one.jpg")])
    let valid = ObservedQuery.assets(AssetQuery())
    let invalid = ObservedQuery.assets(AssetQuery(predicate: "pixelWidth >>> 3"))
    for _ in 0..<2 {
        await #expect(throws: LibraryError.self) { try await database.track([valid, invalid]) }
    }
    #expect(database.observedResults.snapshot([valid]).members[valid]?.ids == [], "the valid query was released too")
    try await database.track([valid])
    #expect(database.observedResults.snapshot([valid]).members[valid]?.count == 1)
}
