import Foundation
import PhotoLibrary
import TestSupport
import Testing
import Varlink

/// NSPredicate-format predicates and sorting over the socket; hostile predicates are refused, nothing else happens.
@Suite(.serialized)
struct PredicateTests {
    private func names(_ library: PopulatedDaemon, _ assets: [String: String], _ query: AssetQuery) async throws
        -> [String]
    {
        try await library.fetchIds(query).map { id in assets.first { $0.value == id }!.key }
    }

    @Test(arguments: [
        ("mediaType = 2", ["video"]),
        ("mediaType == 'video' OR mediaSubtypes CONTAINS 'photoLive'", ["live", "video"]),
        ("pixelWidth BETWEEN {8000, 10000}", ["panorama"]),
        ("(mediaSubtypes & 1) != 0", ["taggedPanorama"]),
        ("creationDate < '2024-01-02T00:00:00Z' OR creationDate == nil", ["undated", "screenshot"]),
        ("creationDate > '2024-03-03T00:00:00+00:00' AND isFavorite == NO", ["raw", "burst1"]),
        ("isFavorite == YES", ["favorite"]),
        ("originalFilename BEGINSWITH[c] 'PAN'", ["panorama"]),
        ("originalFilename LIKE '*anoram?.jpg'", ["panorama", "taggedPanorama"]),
        ("duration > 10 AND fileSize < 1000", ["video"]),
        ("NOT (mediaType == 1) AND addedDate > '2000-01-01T00:00:00Z'", ["video"]),
        ("originalFilename == \"'); DROP TABLE asset; --\"", []),
    ])
    func predicatesSelectOverTheSocket(_ predicate: String, _ expected: [String]) async throws {
        let (library, assets) = try await ModelLibrary.make()
        #expect(try await names(library, assets, AssetQuery(predicate: predicate)) == expected)
        #expect(try await library.fetchIds(AssetQuery()).count == 10)
    }

    @Test func sortsByAnyKeyAndLimits() async throws {
        let (library, assets) = try await ModelLibrary.make()
        #expect(
            try await names(
                library, assets,
                AssetQuery(
                    predicate: "mediaSubtypes != 0", sort: [SortDescriptor(key: "mediaSubtypes", ascending: false)]
                )) == ["live", "screenshot", "taggedPanorama"])
        #expect(
            try await names(
                library, assets,
                AssetQuery(
                    sort: [SortDescriptor(key: "pixelWidth", ascending: false), SortDescriptor(key: "fileSize")],
                    limit: 2
                )) == ["panorama", "plain"])
        #expect(
            try await names(
                library, assets, AssetQuery(sort: [SortDescriptor(key: "creationDate", ascending: false)], limit: 3))
                == ["favorite", "burst1", "raw"])
        #expect(
            try await names(
                library, assets,
                AssetQuery(predicate: "fileSize >= 900", sort: [SortDescriptor(key: "originalFilename")]))
                == ["burst1", "favorite"])
        let limited = try await library.client.fetchAssets(matching: AssetQuery(limit: 4), offset: 3, pageSize: 10)
        #expect(limited.count == 4)
        #expect(limited.assets.count == 1)
        await #expect { try await library.fetchIds(AssetQuery(sort: [SortDescriptor(key: "secret")])) } throws: {
            ($0 as? PhotoLibraryError)?.varlinkError?.name == "org.varlink.service.InvalidParameter"
        }
    }

    @Test func hostilePredicatesAreRefusedAndChangeNothing() async throws {
        let (library, _) = try await ModelLibrary.make()
        let before = try await library.everything()
        let token = try await library.token()
        let nested = String(repeating: "(", count: 10_000) + "pixelWidth > 1" + String(repeating: ")", count: 10_000)
        let hugeList = "pixelWidth IN {" + (0..<50_000).map(String.init).joined(separator: ", ") + "}"
        let withNul = "pixelWidth > 1 AND originalFilename == 'a\u{0}b'"
        func position(of part: String, in text: String) -> Int {
            text.unicodeScalars.distance(
                from: text.unicodeScalars.startIndex,
                to: text.range(of: part)!.lowerBound.samePosition(in: text.unicodeScalars)!)
        }
        let refusals: [(String, String)] = [
            (nested, "nesting deeper than 64 levels at position 64"),
            (withNul, "NUL character at position \(position(of: "\u{0}", in: withNul))"),
            ("\u{0}", "NUL character at position 0"),
            (hugeList, "list longer than 10000 values at position \(position(of: " 10000,", in: hugeList) + 1)"),
            ("pixelWidth > 'abc'", "pixelWidth needs a number at position 13"),
            (
                "creationDate > 1700000000",
                "creationDate needs an RFC 3339 date string such as '2024-01-31T10:15:00Z' at position 15"
            ),
            ("isHidden == 'no'", "isHidden needs TRUE, FALSE, YES or NO at position 12"),
            ("foo == 1", "unknown key 'foo' at position 0"),
            ("pixelWidth > 1; DROP TABLE asset", "unexpected character ';' at position 14"),
            ("(pixelWidth > 1", "unexpected end of predicate, expected ')' at position 15"),
            ("originalFilename == 'x' OR 1 == 1", "a comparison needs a key at position 27"),
            (String(repeating: "x", count: 1_000_001), "predicate longer than 1000000 characters at position 1000000"),
        ]
        for (predicate, reason) in refusals {
            await #expect { try await library.fetchIds(AssetQuery(predicate: predicate)) } throws: { error in
                guard let error = (error as? PhotoLibraryError)?.varlinkError else { return false }
                return error.name == "io.photolibd.Library.InvalidPredicate"
                    && error.parameters["reason"] == .string(reason)
            }
        }
        #expect(
            try await library.fetchIds(AssetQuery(predicate: "originalFilename == \"x'); DELETE FROM asset; --\""))
                .isEmpty)
        #expect(try await library.everything() == before)
        #expect(try await library.token() == token)
        #expect(library.daemon.isRunning)
    }

    /// `IN` followed by thousands of `{` ended the daemon with SIGSEGV (5,000 in a debug build, 20,000 in a release
    /// build): each is refused, and the same connection and a new one fetch as before.
    @Test(arguments: [5_000, 100_000])
    func aPredicateOfNestedListsIsRefusedAndTheDaemonServesOn(braces: Int) async throws {
        let (library, _) = try await ModelLibrary.make()
        let everything = try await library.fetchIds(AssetQuery())
        await #expect {
            try await library.fetchIds(AssetQuery(predicate: "fileSize IN " + String(repeating: "{", count: braces)))
        } throws: {
            guard let error = ($0 as? PhotoLibraryError)?.varlinkError else { return false }
            return error.name == "io.photolibd.Library.InvalidPredicate"
                && error.parameters["reason"] == .string("a list holds only values at position 13")
        }
        #expect(library.daemon.isRunning)
        #expect(try await library.fetchIds(AssetQuery()) == everything)
        let another = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        #expect(try await another.fetchAllAssets(matching: AssetQuery()).assets.map(\.id) == everything)
        await another.close()
    }
}
