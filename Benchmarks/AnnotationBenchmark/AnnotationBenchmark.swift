import BenchmarkSupport
import Foundation
import LibraryStore
import PhotoLibrary
import PhotoModel
import TestSupport

/// CONTRACT §14's speed targets: `rating >= 4` and `ANY keywords == 'x'` over a library of N annotated assets
/// through a real `photolibd` beside the `sqlite3` command line on the same tables; one rating's write-back
/// visible in its sidecar after the commit; and reference imports of photos with sidecars beside the same photos
/// without.
@main
struct AnnotationBenchmark {
    static func main() async throws {
        let arguments = BenchmarkArguments.parse(command: "annotation-benchmark", defaultAssets: 1_000_000)
        let photos = CommandLine.arguments.count > 5 ? CommandLine.arguments[5] : nil
        try await queries(arguments)
        try await writeBackLatency(binary: arguments.daemonBinary, work: arguments.work + "/write-back", rounds: arguments.rounds)
        if let photos { try await sidecarImportCost(binary: arguments.daemonBinary, work: arguments.work, photos: photos) }
    }

    // MARK: - Queries

    static func queries(_ arguments: BenchmarkArguments) async throws {
        let databasePath = try await AnnotatedLibrary.build(in: arguments.work, count: arguments.assetCount)
        let (daemon, socket) = try await BenchmarkLibrary.startDaemon(arguments.daemonBinary, work: arguments.work)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let raw = try RawVarlinkClient(socketPath: socket)
        print("\nFetchAssets over the socket (call to last reply byte) vs sqlite3 running the same statements on \(databasePath)")
        print("predicate                      | assets    | photolibd median    p90 | sqlite3 .timer median | ratio")
        let shown = "(asset.isHidden = 0) AND (asset.trashedTime IS NULL) AND (asset.collapsesIntoBurst = 0)"
        let columns = "asset.id, asset.mediaType, asset.mediaSubtypes, asset.pixelWidth, asset.pixelHeight, asset.orientation, "
            + "asset.creationTime, asset.creationOffset, asset.creationDateSource, asset.modificationTime, asset.addedTime, "
            + "asset.latitude, asset.longitude, asset.altitude, asset.duration, asset.isFavorite, asset.isHidden, "
            + "asset.trashedTime, asset.burstIdentifier, asset.originalFilename, asset.fileSize, asset.hasAdjustments, "
            + "asset.cameraMake, asset.cameraModel, asset.lensModel, asset.fNumber, asset.exposureTime, asset.iso, "
            + "asset.focalLength, asset.focalLength35mm, asset.rating, asset.title, asset.caption"
        for (predicate, condition) in [
            ("rating >= 4", "(asset.rating >= 4)"),
            ("ANY keywords == 'x'", "(asset.id IN (SELECT assetId FROM asset_keyword WHERE asset_keyword.keyword IS 'x'))"),
        ] {
            let terms = "\(shown) AND \(condition)"
            let page = "SELECT \(columns) FROM asset WHERE \(terms) ORDER BY asset.creationTime ASC, asset.id ASC LIMIT 500"
            let sql = """
                SELECT count(*) FROM asset WHERE \(terms);
                \(page);
                SELECT assetId, keyword FROM asset_keyword WHERE assetId IN (SELECT id FROM (\(page))) ORDER BY assetId, position;
                """
            let call = #"{"method":"io.photolibd.Library.FetchAssets","parameters":{"query":{"predicate":"\#(predicate)"},"pageSize":500}}"#
            let count = try JSONSerialization.jsonObject(with: Data(try raw.reply(to: call))) as? [String: Any]
            let found = ((count?["parameters"] as? [String: Any])?["count"] as? Int) ?? -1
            for _ in 0..<5 { _ = try raw.call(call) }
            var times = Measurements()
            for _ in 0..<arguments.rounds {
                let start = monotonicMilliseconds()
                _ = try raw.call(call)
                times.append(monotonicMilliseconds() - start)
            }
            let sqlite = try sqlite3Times(databasePath, sql, rounds: min(arguments.rounds, 50)).timer
            print(String(format: "%@ | %9d | %16.2f %6.2f | %21.2f | ×%.2f",
                         predicate.padding(toLength: 30, withPad: " ", startingAt: 0) as NSString, found, times.median,
                         times.percentile(0.9), sqlite.median, times.median / sqlite.median))
            BenchmarkRecord.figure("FetchAssets `\(predicate)`, first 500 and count, \(arguments.assetCount) assets",
                                   ours: times.median, peer: sqlite.median, peerName: "sqlite3 .timer, same statements",
                                   unit: "ms", target: "≤ 1.2×")
        }
    }

    // MARK: - Write-back

    /// Rates one photo again and again; after each commit, waits until its sidecar holds the new rating (the
    /// renamed file, as exiftool would read it) and records how long that took. exiftool reads the last one.
    static func writeBackLatency(binary: String, work: String, rounds: Int) async throws {
        try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work + "/photos", withIntermediateDirectories: true)
        let photo = work + "/photos/IMG_1.jpg"
        _ = try runTool("/usr/bin/vips", ["black", photo, "64", "48"])
        let (daemon, socket) = try await BenchmarkLibrary.startDaemon(binary, work: work)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let library = try await PhotoLibrary.connect(socketPath: socket)
        guard let id = try await library.importFiles([photo], mode: .reference).files.first?.assetId else {
            throw BenchmarkError("the photo was not imported")
        }
        let sidecar = photo + ".xmp"
        var latencies = Measurements()
        for round in 0..<max(rounds, 100) {
            let rating = round % 5 + 1
            var changes = PhotoLibrary.ChangeBuilder()
            changes.setRating(rating, for: [id])
            _ = try await library.performChanges(changes)
            let committed = monotonicMilliseconds()
            let expected = Array("xmp:Rating=\"\(rating)\"".utf8)
            while true {
                if let data = FileManager.default.contents(atPath: sidecar), data.range(of: Data(expected)) != nil { break }
                guard monotonicMilliseconds() - committed < 5_000 else { throw BenchmarkError("the sidecar never showed \(rating)") }
                try await Task.sleep(for: .microseconds(200))
            }
            latencies.append(monotonicMilliseconds() - committed)
        }
        let read = try runTool("/usr/bin/exiftool", ["-s3", "-XMP-xmp:Rating", sidecar]).output
        BenchmarkRecord.figure("write-back of one rating, commit to its sidecar in place, p99", ours: latencies.percentile(0.99),
                               peer: nil, peerName: nil, unit: "ms", target: "≤ 50 ms")
        BenchmarkRecord.samples("write-back of one rating, commit to its sidecar in place", latencies.values, unit: "ms")
        await library.close()
        print(String(format: "\nwrite-back of one rating, commit reply to the sidecar renamed into place (%d rounds): "
                     + "median %.2f ms, p90 %.2f ms, p99 %.2f ms; exiftool reads the last: %@", latencies.values.count,
                     latencies.median, latencies.percentile(0.9), latencies.percentile(0.99),
                     read.trimmingCharacters(in: .whitespacesAndNewlines) as NSString))
    }

    // MARK: - Imports

    /// Imports by reference, into fresh libraries, the photos with a darktable sidecar each and the same photos
    /// without, alternating, and compares files per second.
    static func sidecarImportCost(binary: String, work: String, photos: String) async throws {
        let plain = try jpegs(in: photos)
        let withSidecars = work + "/photos-with-sidecars"
        if !FileManager.default.fileExists(atPath: withSidecars) {
            try FileManager.default.createDirectory(atPath: withSidecars + ".partial", withIntermediateDirectories: true)
            for (number, path) in plain.enumerated() {
                let name = (path as NSString).lastPathComponent
                try FileManager.default.linkItem(atPath: path, toPath: withSidecars + ".partial/" + name)
                try SidecarFixtures.darktable(rating: number % 6, keyword: "k\(number % 50)")
                    .write(toFile: withSidecars + ".partial/" + name + ".xmp", atomically: false, encoding: .utf8)
            }
            try FileManager.default.moveItem(atPath: withSidecars + ".partial", toPath: withSidecars)
        }
        let sidecarred = try jpegs(in: withSidecars)
        var rates: [Bool: [Double]] = [true: [], false: []]
        for round in 0..<6 {
            let hasSidecars = round % 2 == 0
            let roundWork = work + "/sidecar-round"
            try? FileManager.default.removeItem(atPath: roundWork)
            try FileManager.default.createDirectory(atPath: roundWork, withIntermediateDirectories: true)
            let (daemon, socket) = try await BenchmarkLibrary.startDaemon(binary, work: roundWork)
            let library = try await PhotoLibrary.connect(socketPath: socket)
            let start = monotonicMilliseconds()
            let result = try await library.importFiles(hasSidecars ? sidecarred : plain, mode: .reference)
            let seconds = (monotonicMilliseconds() - start) / 1000
            if hasSidecars {
                let rated = try await library.fetchAssets(matching: AssetQuery(predicate: "rating >= 1"), pageSize: 0).count
                guard rated == sidecarred.count * 5 / 6 || abs(rated - sidecarred.count * 5 / 6) <= 1 else {
                    throw BenchmarkError("\(rated) photos have their sidecar's rating")
                }
            }
            await library.close()
            daemon.terminate()
            daemon.waitUntilExit()
            guard result.files.allSatisfy({ $0.assetId != nil }) else { throw BenchmarkError("an import failed") }
            rates[hasSidecars, default: []].append(Double(plain.count) / seconds)
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let with = median(rates[true]!), without = median(rates[false]!)
        print(String(format: "\nreference imports of %d photos, median of 3 fresh libraries each: with a sidecar each %.1f files/s, "
                     + "without %.1f files/s (×%.2f)", plain.count, with, without, with / without))
        BenchmarkRecord.figure("reference import of \(plain.count) camera JPEGs with a darktable sidecar each", ours: with,
                               peer: without, peerName: "the same JPEGs without sidecars", unit: "files/s", better: .higher,
                               target: "≥ 0.9×")
    }

    static func jpegs(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted().map { folder + "/" + $0 }
    }
}

/// A library of N photos with annotations: ratings spread over -1...5 (a fifth at 4 or more), two keywords each
/// from a vocabulary of 5,000, and the keyword `x` on one photo in a hundred.
enum AnnotatedLibrary {
    static func build(in work: String, count: Int) async throws -> String {
        let directory = work + "/library"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/library.sqlite"
        guard !FileManager.default.fileExists(atPath: path) else { return path }
        let started = Date()
        let database = try LibraryDatabase(path: path)
        var random = SystemRandomNumberGenerator()
        for batchStart in stride(from: 0, to: count, by: 1_000) {
            var drafts: [Int: AssetDraft] = [:]
            var changes: [LibraryChange] = []
            for number in batchStart..<min(batchStart + 1_000, count) {
                var draft = AssetDraft(
                    mediaType: .image, pixelWidth: 4_032, pixelHeight: 3_024, orientation: 1,
                    creationDate: Timestamp(secondsSince1970: 1_400_000_000 + Double(random.next() % 315_360_000), utcOffsetSeconds: 0),
                    creationDateSource: .exif, location: nil, contentHash: "annotated-\(number)",
                    resources: [DraftResource(type: .photo, originalFilename: "IMG_\(number).JPG", mimeType: "image/jpeg",
                                              fileSize: 3_500_000, path: "/benchmark/IMG_\(number).JPG", isOwnedByLibrary: false)])
                let roll = Int(random.next() % 100)
                draft.annotations = Annotations(
                    rating: roll < 20 ? 4 + roll % 2 : roll % 5 - 1,
                    keywords: ["k\(random.next() % 5_000)", "Places|p\(random.next() % 500)"] + (roll == 50 ? ["x"] : []),
                    caption: roll < 10 ? "At the beach, \(number)" : nil)
                drafts[changes.count] = draft
                changes.append(.createAsset(AssetCreation(path: "/benchmark/IMG_\(number).JPG", placeholder: nil)))
            }
            _ = try await database.performChanges(changes, drafts: drafts)
        }
        print("built \(count) annotated assets through the store in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        return path
    }
}
