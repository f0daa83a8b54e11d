import BenchmarkSupport
import DaemonCore
import Foundation
import LibraryStore
import Logging

/// Times the places backfill of a library from before places: ASSETS located assets (built through the store, then
/// moved by SQL near random places of the table, their places unlooked-up) named by the core's
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
        // Each asset at a random place of the table moved up to 0.1° (as photos near towns are), its place not looked
        // up: the state after an upgrade. The place's row is picked per asset (the subquery names the asset's rowid).
        _ = try runSQLite3(
            path,
            """
            .timeout 600000
            ATTACH '\(table)' AS geo;
            CREATE TEMP TABLE spot AS SELECT latitudeMicrodegrees / 1e6 AS latitude, longitudeMicrodegrees / 1e6 AS longitude
              FROM geo.place;
            UPDATE asset SET (latitude, longitude) = (
                SELECT spot.latitude + (abs(random()) % 200000) / 1e6 - 0.1,
                  spot.longitude + (abs(random()) % 200000) / 1e6 - 0.1
                FROM temp.spot WHERE spot.rowid = 1 + (abs(random()) + asset.rowid * 0) % (SELECT count(*) FROM temp.spot)),
              placeId = NULL, placeLookedUp = 0;
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
            "/usr/bin/sqlite3",
            [path, ".timeout 600000", "UPDATE asset SET placeLookedUp = 1 - placeLookedUp, placeId = placeId;"])
        print(
            "sqlite3 updating every row once: \(String(format: "%.1f", floor)) s; backfill ÷ that: "
                + String(format: "%.1f", seconds / floor) + "× (target: ≤ 120 s for 1,000,000)")
        BenchmarkRecord.figure(
            "places backfill of \(count) located assets", ours: seconds, peer: floor,
            peerName: "sqlite3: one UPDATE of every row", unit: "s", target: "≤ 120 s")
    }
}
