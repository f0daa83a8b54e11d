import BenchmarkSupport
import Foundation
import ImageFingerprinting
import Imaging
import LibraryStore
import PhotoLibrary
import PhotoModel
import PhotolibConfig

/// Calibrates and times duplicate detection (CONTRACT §17, issue 48).
///
///     duplicate-benchmark calibrate CORPUS [PHOTOLIBD]
///                                               precision and recall by threshold over CORPUS/pairs.json (made by
///                                               Tests/Interop/duplicate_corpus.py), fingerprints made as an import
///                                               makes them: with the 256-pixel grid rendition; and their cost, beside
///                                               that of PHOTOLIBD's import of the same files, when given
///     duplicate-benchmark scale WORK [ASSETS]   a library of ASSETS (1,000,000) random fingerprints, 2 % of them near
///                                               copies: all groups made afresh, then new assets checked one by one
@main struct DuplicateBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        switch (arguments.count, arguments.dropFirst().first) {
        case (3...4, "calibrate"):
            try await calibrate(corpus: arguments[2], daemon: arguments.count > 3 ? arguments[3] : nil)
        case (3..., "scale"):
            try await scale(work: arguments[2], count: arguments.count > 3 ? Int(arguments[3])! : 1_000_000)
        default:
            print("usage: duplicate-benchmark calibrate CORPUS [PHOTOLIBD] | scale WORK [ASSETS]")
            exit(2)
        }
    }

    private struct Pair: Decodable {
        var a: String
        var b: String
        var kind: String
        var same: Bool
    }

    static let grid = RenditionSpec(size: .shortSide(256))

    static func calibrate(corpus: String, daemon: String?) async throws {
        let pairs = try JSONDecoder().decode(
            [Pair].self, from: Data(contentsOf: URL(fileURLWithPath: corpus + "/pairs.json")))
        let files = Set(pairs.flatMap { [$0.a, $0.b] }).sorted()
        let renderer = ImageRenderer()
        VipsRuntime.setThreadsPerImage(1)  // as the daemon renders: one image on each core
        var fingerprints: [String: ImageFingerprint?] = [:]
        // The CPU (all threads) of each file rendered as the import's first rendition is, with and without its
        // fingerprint, in turn, five times; each file's least of either kept, so that what varies between passes does
        // not pass for its cost.
        var withFingerprint = 0.0, without = 0.0
        for file in files {
            var fastestWith = Double.infinity, fastestWithout = Double.infinity
            for _ in 0..<5 {
                var started = processCPUMilliseconds()
                fingerprints[file] = try renderer.render(
                    imageAt: corpus + "/" + file, as: grid, fingerprinting: true
                ).fingerprint
                fastestWith = min(fastestWith, processCPUMilliseconds() - started)
                started = processCPUMilliseconds()
                _ = try renderer.render(imageAt: corpus + "/" + file, as: grid)
                fastestWithout = min(fastestWithout, processCPUMilliseconds() - started)
            }
            withFingerprint += fastestWith
            without += fastestWithout
        }
        let perFile = (withFingerprint - without) / Double(files.count)
        print(
            String(
                format:
                    "fingerprint: %.3f ms of CPU a file on top of its grid rendition's (%.2f ms, %.1f %%), %d files, %d without one",
                perFile, without / Double(files.count), 100 * perFile / (without / Double(files.count)), files.count,
                fingerprints.values.filter { $0 == nil }.count))
        if let daemon {
            let importCPU = try await importCPU(
                of: files.map { corpus + "/" + $0 }, daemon: daemon, work: corpus + "-import")
            print(
                String(
                    format:
                        "the daemon's import of the same files (copy mode, fingerprints included): %.2f ms of CPU a file;"
                        + " the fingerprint %.1f %% of it", importCPU, 100 * perFile / importCPU))
            BenchmarkRecord.figure(
                "fingerprint's share of an import's CPU a file", ours: perFile, peer: importCPU,
                peerName: "photolibd's copy-mode import of the same files", unit: "ms", target: "≤ 3 %")
        }
        // The hash alone, on the pixels of a 341×256 sRGB grid rendition, a thousand times.
        var generator = SystemRandomNumberGenerator()
        let pixels = (0..<341 * 256 * 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let hashStarted = monotonicMilliseconds()
        var hashed = 0
        for _ in 0..<1_000 {
            if pixels.withUnsafeBytes({ PerceptualHash.fingerprint(ofPixels: $0, width: 341, height: 256, bands: 3) })
                != nil
            {
                hashed += 1
            }
        }
        let hashOnly = (monotonicMilliseconds() - hashStarted) / 1_000
        print(
            String(
                format: "the hash alone of a 341x256 rendition's pixels: %.3f ms (%d of 1000 hashed)", hashOnly, hashed)
        )
        BenchmarkRecord.figure(
            "fingerprint added to a file's first rendition", ours: perFile, peer: without / Double(files.count),
            peerName: "the 256-pixel grid rendition itself", unit: "ms", target: "≤ 3 % of an import's CPU a file")
        print("threshold\tprecision\trecall\tfalse matches\tmissed copies")
        for threshold in 0...16 {
            var truePositives = 0, falsePositives = 0, falseNegatives = 0
            for pair in pairs {
                let matched =
                    if let a = fingerprints[pair.a]!, let b = fingerprints[pair.b]! {
                        a.distance(to: b) <= threshold
                    } else { false }
                switch (matched, pair.same) {
                case (true, true): truePositives += 1
                case (true, false): falsePositives += 1
                case (false, true): falseNegatives += 1
                case (false, false): break
                }
            }
            let precision = Double(truePositives) / Double(max(1, truePositives + falsePositives))
            let recall = Double(truePositives) / Double(max(1, truePositives + falseNegatives))
            print(
                String(format: "%d\t%.4f\t%.4f\t%d\t%d", threshold, precision, recall, falsePositives, falseNegatives))
        }
        print("kind\tlargest distance of a copy / smallest of a near-miss")
        for kind in Set(pairs.map(\.kind)).sorted() {
            let distances = pairs.filter { $0.kind == kind }.compactMap { pair -> Int? in
                guard let a = fingerprints[pair.a]!, let b = fingerprints[pair.b]! else { return nil }
                return a.distance(to: b)
            }
            let same = pairs.first { $0.kind == kind }!.same
            print("\(kind)\t\(same ? distances.max() ?? -1 : distances.min() ?? -1)")
        }
    }

    /// The CPU (all its threads) that `daemon` spends a file on a copy-mode import of `files` into an empty library
    /// under `work`, until it is idle again (its background analysis done).
    static func importCPU(of files: [String], daemon binary: String, work: String) async throws -> Double {
        try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let (daemon, socket) = try await BenchmarkLibrary.startDaemon(binary, work: work)
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        func cpuMilliseconds() throws -> Double {
            // utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks (after the command's parentheses).
            let stat = try String(contentsOfFile: "/proc/\(daemon.processIdentifier)/stat", encoding: .utf8)
            let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
            return (Double(fields[11])! + Double(fields[12])!) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
        let library = try await PhotoLibrary.connect(socketPath: socket)
        let before = try cpuMilliseconds()
        _ = try await library.importFiles(files, mode: .copy)
        await library.close()
        var last = try cpuMilliseconds()
        while true {
            try await Task.sleep(for: .seconds(1))
            let now = try cpuMilliseconds()
            if now - last < 20 { break }
            last = now
        }
        return (last - before) / Double(files.count)
    }

    static func scale(work: String, count: Int) async throws {
        let path = try await BenchmarkLibrary.build(in: work, count: count)
        // Random fingerprints, every 50th a copy of the one before with up to 4 bits flipped; groups unmade.
        _ = try runSQLite3(
            path,
            """
            .timeout 600000
            UPDATE asset SET fingerprint = random(), fingerprintMade = 1;
            DELETE FROM duplicate_member;
            UPDATE asset SET fingerprint = (SELECT previous.fingerprint FROM asset AS previous
                WHERE previous.rowid = asset.rowid - 1) WHERE rowid % 50 = 0;
            UPDATE asset SET fingerprint = (fingerprint | (1 << (rowid % 61))) - (fingerprint & (1 << (rowid % 61)))
              WHERE rowid % 50 = 0;
            UPDATE library_info SET duplicateThreshold = -1;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
        let database = try LibraryDatabase(path: path)
        let threshold = DaemonConfiguration.defaultDuplicateThreshold
        var started = monotonicMilliseconds()
        try await database.duplicates.useDuplicateThreshold(threshold)
        let afresh = (monotonicMilliseconds() - started) / 1_000
        let groups = try await database.duplicates.fetchDuplicates(nil).count
        print(String(format: "all groups of %d fingerprints made afresh: %.2f s, %d groups", count, afresh, groups))
        BenchmarkRecord.figure(
            "all duplicate groups of \(count) fingerprints afresh", ours: afresh, peer: nil, peerName: nil, unit: "s",
            target: "≤ 2 s at 1,000,000")

        // New assets, each checked on its own: stored, compared through the band indexes, grouped, committed. New in
        // every run (a run's own content hashes): an asset fingerprinted before is not checked again.
        let newCount = 1_000
        let run = UUID().uuidString
        var drafts: [Int: AssetDraft] = [:]
        for index in 0..<newCount {
            drafts[index] = AssetDraft(
                mediaType: .image, pixelWidth: 4032, pixelHeight: 3024, orientation: 1, creationDate: nil,
                creationDateSource: nil, location: nil, contentHash: "new-\(run)-\(index)",
                resources: [
                    DraftResource(
                        type: .photo, originalFilename: "NEW_\(index).jpg", mimeType: "image/jpeg", fileSize: 3_000_000,
                        path: "/benchmark/\(run)/NEW_\(index).jpg", isOwnedByLibrary: false)
                ])
        }
        let created = try await database.performChanges(
            (0..<newCount).map {
                .createAsset(AssetCreation(path: "/benchmark/\(run)/NEW_\($0).jpg", placeholder: "@\($0)"))
            },
            drafts: drafts)
        let existing = try runSQLite3(
            path, "SELECT fingerprint FROM asset WHERE fingerprint IS NOT NULL LIMIT \(newCount);"
        )
        .split(separator: "\n").map { ImageFingerprint(storedValue: Int64($0)!) }
        var generator = SystemRandomNumberGenerator()
        started = monotonicMilliseconds()
        let startedCPU = processCPUMilliseconds()
        for index in 0..<newCount {
            // Half of them copies of an asset of the library.
            let fingerprint =
                index % 2 == 0
                ? ImageFingerprint(bits: existing[index].bits ^ (1 << (generator.next() % 64)))
                : ImageFingerprint(bits: generator.next())
            try await database.duplicates.recordFingerprints([(created.created["@\(index)"]!, fingerprint)])
        }
        let perAsset = (monotonicMilliseconds() - started) / Double(newCount)
        let cpuPerAsset = (processCPUMilliseconds() - startedCPU) / Double(newCount)
        // The floor of any scan: every fingerprint compared in memory, on one core.
        let all = try runSQLite3(path, "SELECT fingerprint FROM asset WHERE fingerprint IS NOT NULL;")
            .split(separator: "\n").map { UInt64(bitPattern: Int64($0)!) }
        started = monotonicMilliseconds()
        var near = 0
        for probe in existing.prefix(100) {
            near += all.reduce(0) { $0 + (($1 ^ probe.bits).nonzeroBitCount <= threshold ? 1 : 0) }
        }
        let scan = (monotonicMilliseconds() - started) / 100
        print(
            String(
                format: "a new asset's duplicate check at %d fingerprints: %.3f ms (stored, grouped, committed; %.3f ms"
                    + " of CPU); an in-memory scan of them all: %.3f ms (%d near)", all.count, perAsset, cpuPerAsset,
                scan,
                near))
        BenchmarkRecord.figure(
            "a new asset's duplicate check at \(all.count) fingerprints", ours: perAsset, peer: scan,
            peerName: "an in-memory scan of every fingerprint", unit: "ms", target: "≤ 1 ms at 1,000,000")
    }
}
