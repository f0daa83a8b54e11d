import BenchmarkSupport
import Foundation
import LibraryStore
import PhotoLibrary
import PhotoModel

/// Builds a varied library of N assets through the store, then times a predicate fetch and the smart albums'
/// counts over the socket of a real `photolibd`, each beside the `sqlite3` command line on the same file, and
/// reports the daemon's resident memory with that library open.
@main
struct LibraryModelBenchmark {
    static let predicate = "creationDate >= '2019-01-01T00:00:00Z' AND creationDate < '2020-01-01T00:00:00Z' AND isFavorite == YES"

    static func main() async throws {
        let arguments = BenchmarkArguments.parse(command: "library-model-benchmark", defaultAssets: 1_000_000)
        let rounds = arguments.rounds
        let databasePath = try await VariedLibrary.build(in: arguments.work, count: arguments.assetCount)
        let (daemon, socket) = try await BenchmarkLibrary.startDaemon(arguments.daemonBinary, work: arguments.work)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let library = try await PhotoLibrary.connect(socketPath: socket)

        let query = AssetQuery(predicate: predicate, sort: [SortDescriptor(key: "creationDate", ascending: false)])
        let page = try await library.fetchAssets(matching: query, pageSize: 500)
        let smartAlbums = try await library.fetchCollections(matching: CollectionQuery(kind: .smartAlbum)).collections
        print("\npredicate: \(predicate), sorted by creationDate descending: \(page.count) assets, first page \(page.assets.count)")
        print("smart albums: " + smartAlbums.map { "\($0.title) \($0.assetCount ?? 0)" }.joined(separator: ", "))

        let raw = try RawVarlinkClient(socketPath: socket)
        print("\nphotolibd over the socket vs sqlite3 on \(databasePath), \(rounds) rounds each (milliseconds)")
        print("socket: call to last reply byte; client: the same through the PhotoLibrary module, JSON decoded")
        print("measurement                        | socket median    p90 | client median | sqlite3 process median | sqlite3 .timer")
        let shown = "isHidden = 0 AND trashedTime IS NULL AND collapsesIntoBurst = 0"
        let predicateTerms = """
            (\(shown.replacingOccurrences(of: " AND ", with: ") AND ("))) AND (((creationTime >= 1546300800.0 AND creationTime IS NOT NULL)
            AND ((creationTime < 1577836800.0 AND creationTime IS NOT NULL) AND isFavorite IS 1)))
            """
        let predicateSQL = """
            SELECT count(*) FROM asset WHERE \(predicateTerms);
            SELECT id, mediaType, mediaSubtypes, pixelWidth, pixelHeight, orientation, creationTime, creationOffset,
            creationDateSource, modificationTime, addedTime, latitude, longitude, altitude, duration, isFavorite, isHidden,
            trashedTime, burstIdentifier, originalFilename, fileSize FROM asset WHERE \(predicateTerms)
            ORDER BY creationTime DESC, id ASC LIMIT 500 OFFSET 0;
            """
        let predicateCall = #"{"method":"io.photolibd.Library.FetchAssets","parameters":{"query":{"predicate":"\#(predicate)","#
            + #""sort":[{"key":"creationDate","ascending":false}]},"pageSize":500}}"#
        try await measure("predicate fetch, first page of 500", rounds: rounds, raw: raw, call: predicateCall,
                          database: databasePath, sql: predicateSQL) {
            _ = try await library.fetchAssets(matching: query, pageSize: 500)
        }
        let smartCall = #"{"method":"io.photolibd.Library.FetchCollections","parameters":{"query":{"kind":"smartAlbum"}}}"#
        try await measure("smart albums with counts and dates", rounds: rounds, raw: raw, call: smartCall,
                          database: databasePath, sql: smartAlbumStatements(shown: shown)) {
            _ = try await library.fetchCollections(matching: CollectionQuery(kind: .smartAlbum))
        }
        let direct = try sqlite3Times(databasePath, directCounts(shown: shown), rounds: min(rounds, 20))
        print(String(format: "%-34@ | %20@ | %13@ | %22.2f | %14.2f", "  sqlite3 counting with COUNT(*)" as NSString,
                     "" as NSString, "" as NSString, direct.process.median, direct.timer.median))
        print(String(format: "\nphotolibd resident memory (VmRSS) with the library open: %.1f MB",
                     BenchmarkLibrary.residentMegabytes(of: daemon)))
        await library.close()
    }

    /// Times `call` on the raw socket and `body` through the client, then `sql` in the sqlite3 command line,
    /// and prints one row.
    static func measure(_ name: String, rounds: Int, raw: RawVarlinkClient, call: String, database: String, sql: String,
                        _ body: @Sendable () async throws -> Void) async throws {
        for _ in 0..<5 { _ = try raw.call(call) }
        var socketTimes = Measurements(), clientTimes = Measurements()
        for _ in 0..<rounds {
            var start = monotonicMilliseconds()
            _ = try raw.call(call)
            socketTimes.append(monotonicMilliseconds() - start)
            start = monotonicMilliseconds()
            try await body()
            clientTimes.append(monotonicMilliseconds() - start)
        }
        let sqlite = try sqlite3Times(database, sql, rounds: min(rounds, 100))
        print(String(format: "%-34@ | %13.2f %6.2f | %13.2f | %22.2f | %14.2f", name as NSString, socketTimes.median,
                     socketTimes.percentile(0.9), clientTimes.median, sqlite.process.median, sqlite.timer.median))
    }

    /// The statements photolibd runs for the smart albums: tallies for the counts, one index step per date edge.
    static func smartAlbumStatements(shown: String) -> String {
        let firstRecentDay = Int(Date().timeIntervalSince1970 / 86_400) - 30
        var statements = [
            "SELECT subtype, assetCount FROM asset_tally WHERE day = 0;",
            "SELECT day, assetCount FROM asset_tally WHERE subtype = 'smartAlbumRecentlyAdded' AND day >= \(firstRecentDay);",
        ]
        for (index, terms) in smartAlbumRules(shown: shown) {
            for direction in ["ASC", "DESC"] {
                statements.append("SELECT creationTime, creationOffset FROM asset INDEXED BY \(index) WHERE \(terms)"
                    + " AND creationTime IS NOT NULL ORDER BY creationTime \(direction) LIMIT 1;")
            }
        }
        return statements.joined(separator: "\n")
    }

    /// The same counts as plain `count(*)` over each rule, as one would write them without the tallies.
    static func directCounts(shown: String) -> String {
        let firstRecentDay = Int(Date().timeIntervalSince1970 / 86_400) - 30
        return (smartAlbumRules(shown: shown).map { "SELECT count(*) FROM asset WHERE \($0.terms);" }
            + ["SELECT count(*) FROM asset WHERE addedDay >= \(firstRecentDay) AND \(shown);"]).joined(separator: "\n")
    }

    /// Each fixed smart album's partial index and rule; Recently Added's index and today's day.
    static func smartAlbumRules(shown: String) -> [(index: String, terms: String)] {
        let today = Int(Date().timeIntervalSince1970 / 86_400)
        return [
            ("asset_shown_order", shown),
            ("asset_in_smartAlbumFavorites", "isFavorite = 1 AND \(shown)"),
            ("asset_in_smartAlbumVideos", "mediaType = 2 AND \(shown)"),
            ("asset_in_smartAlbumAllHidden", "isHidden = 1 AND trashedTime IS NULL AND collapsesIntoBurst = 0"),
            ("asset_in_smartAlbumPanoramas", "mediaType = 1 AND (mediaSubtypes & 1 != 0 OR (pixelHeight > 0 AND pixelWidth >= 2 * pixelHeight)) AND \(shown)"),
            ("asset_in_smartAlbumScreenshots", "mediaSubtypes & 4 != 0 AND \(shown)"),
            ("asset_in_smartAlbumLivePhotos", "mediaSubtypes & 8 != 0 AND \(shown)"),
            ("asset_in_smartAlbumBursts", "burstIdentifier IS NOT NULL AND \(shown)"),
            ("asset_in_smartAlbumRecentlyDeleted", "trashedTime IS NOT NULL"),
            ("asset_in_smartAlbumRAW", "isRAW = 1 AND \(shown)"),
            ("asset_recently_added_order", "addedDay = \(today) AND \(shown)"),
        ]
    }
}

/// A library whose assets exercise every smart album: favorites, videos, screenshots, Live Photos, panoramas,
/// bursts, RAW pairs, hidden and trashed assets, dated over ten years in several time zones.
enum VariedLibrary {
    /// Creates `library/library.sqlite` under `work` with `count` assets unless it exists; returns its path.
    static func build(in work: String, count: Int) async throws -> String {
        let directory = work + "/library"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/library.sqlite"
        guard !FileManager.default.fileExists(atPath: path) else { return path }
        let started = Date()
        let database = try LibraryDatabase(path: path)
        var random = SplitMix64(seed: 2024)
        for batchStart in stride(from: 0, to: count, by: 1_000) {
            var drafts: [Int: AssetDraft] = [:]
            var changes: [LibraryChange] = []
            var trashed: [String] = []
            for number in batchStart..<min(batchStart + 1_000, count) {
                let roll = random.next() % 1_000
                let wide = roll >= 120 && roll < 130
                var draft = AssetDraft(
                    mediaType: roll < 30 ? .video : .image,
                    mediaSubtypes: roll >= 50 && roll < 70 ? .photoScreenshot : (roll >= 70 && roll < 90 ? .photoLive
                        : (roll >= 90 && roll < 95 ? .photoPanorama : [])),
                    pixelWidth: wide ? 12_000 : 4_032, pixelHeight: 3_024, orientation: 1,
                    creationDate: Timestamp(secondsSince1970: 1_400_000_000 + Double(random.next() % 315_360_000),
                                            utcOffsetSeconds: [-18_000, 0, 3_600, 32_400][Int(random.next() % 4)]),
                    creationDateSource: .exif, location: nil, duration: roll < 30 ? 12 : 0, contentHash: "varied-\(number)",
                    resources: [DraftResource(type: .photo, originalFilename: "IMG_\(number).JPG", mimeType: "image/jpeg",
                                              fileSize: 3_500_000, path: "/benchmark/IMG_\(number).JPG", isOwnedByLibrary: false)],
                    burstIdentifier: number % 500 < 5 ? "burst-\(number / 500)" : nil)
                if roll >= 200 && roll < 210 {
                    draft.resources.append(DraftResource(type: .alternatePhoto, originalFilename: "IMG_\(number).CR3",
                                                         mimeType: "image/x-canon-cr3", fileSize: 25_000_000,
                                                         path: "/benchmark/IMG_\(number).CR3", isOwnedByLibrary: false))
                }
                let index = changes.count, placeholder = "@\(number)"
                drafts[index] = draft
                changes.append(.createAsset(AssetCreation(path: "/benchmark/IMG_\(number).JPG", placeholder: placeholder)))
                if roll >= 300 && roll < 350 { changes.append(.updateAsset(target: placeholder, AssetUpdate(isFavorite: true))) }
                if roll >= 400 && roll < 410 { changes.append(.updateAsset(target: placeholder, AssetUpdate(isHidden: true))) }
                if roll >= 500 && roll < 505 { trashed.append(placeholder) }
            }
            changes.append(.deleteAssets(ids: trashed, permanently: false))
            _ = try await database.performChanges(changes, drafts: drafts)
        }
        print("built \(count) assets through the store in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        return path
    }
}

/// A small seeded generator, so every build of the benchmark library is the same.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
