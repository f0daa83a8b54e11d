import BenchmarkSupport
import DaemonCore
import Foundation
import LibraryStore
import Logging

/// Times the places backfill of a library from before places: ASSETS located assets (built through the store, then
/// moved by SQL to random positions on the globe's land and sea, their places unlooked-up) named by the core's
/// `PlacesAnalysis`, batch after batch, as the daemon's background analysis runs it; beside sqlite3 writing the same
/// number of rows with one UPDATE, the floor of any backfill that writes each asset.
/// Usage: place-backfill-benchmark TABLE WORK_DIRECTORY [ASSETS]
@main struct PlaceBackfillBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else {
            print("usage: place-backfill-benchmark TABLE WORK_DIRECTORY [ASSETS]")
            exit(2)
        }
        let (table, work) = (arguments[1], arguments[2])
        let count = arguments.count > 3 ? Int(arguments[3])! : 1_000_000
        let path = try await BenchmarkLibrary.build(in: work, count: count)
        // Positions spread over the inhabited latitudes; every run starts from no place looked up.
        _ = try runSQLite3(
            path,
            """
            UPDATE asset SET latitude = (abs(random()) % 120000000) / 1000000.0 - 55,
              longitude = (abs(random()) % 360000000) / 1000000.0 - 180, placeId = NULL, placeLookedUp = 0;
            """)
        let database = try LibraryDatabase(path: path)
        var logger = Logger(label: "place-backfill-benchmark")
        logger.logLevel = .warning
        let places = PlaceNames(tablePath: table, logger: logger)
        let analysis = PlacesAnalysis(database: database, places: places, logger: logger)
        _ = places.geocoder()

        let started = monotonicMilliseconds()
        var named = 0
        while case let batch = try await analysis.analyseNextBatch(), batch > 0 { named += batch }
        let seconds = (monotonicMilliseconds() - started) / 1_000
        let withPlace = try runSQLite3(path, "SELECT count(*) FROM asset WHERE placeId IS NOT NULL;")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        print("backfill: \(named) assets looked up in \(String(format: "%.1f", seconds)) s, \(withPlace) with a place")

        let floor = try timeTool(
            "/usr/bin/sqlite3", [path, "UPDATE asset SET placeLookedUp = 1 - placeLookedUp, placeId = placeId;"])
        print(
            "sqlite3 updating every row once: \(String(format: "%.1f", floor)) s; backfill ÷ that: "
                + String(format: "%.1f", seconds / floor) + "× (target: ≤ 120 s for 1,000,000)")
        BenchmarkRecord.figure(
            "places backfill of \(count) located assets", ours: seconds, peer: floor,
            peerName: "sqlite3: one UPDATE of every row", unit: "s", target: "≤ 120 s")
    }
}
