import BenchmarkSupport
import CMalloc
import Foundation
import GRDB
import ReverseGeocoding
import TestSupport

/// Times reverse geocoding on LOOKUPS points near real places (each a random place of the table moved up to 0.25° in
/// latitude and longitude, ~28 km, so that some are too far from any place) beside reverse_geocoder's k-d tree on the
/// same points, with each one's load time and resident memory added.
/// Usage: place-benchmark TABLE WORK_DIRECTORY [LOOKUPS]
@main struct PlaceBenchmark {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else {
            print("usage: place-benchmark TABLE WORK_DIRECTORY [LOOKUPS]")
            exit(2)
        }
        let table = arguments[1]
        let work = arguments[2]
        let lookups = arguments.count > 3 ? Int(arguments[3])! : 1_000_000
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)

        let points = try pointsNearPlaces(in: table, count: lookups)
        let pointsFile = work + "/points.csv"
        try points.map { "\($0.latitude),\($0.longitude)\n" }.joined().write(
            toFile: pointsFile, atomically: true, encoding: .utf8)

        // Freed memory handed back first, and what loading freed after: what stays is the geocoder's.
        malloc_trim(0)
        let residentBefore = BenchmarkLibrary.residentMegabytes(ofProcess: getpid())
        var start = monotonicMilliseconds()
        let geocoder = try ReverseGeocoder(tableAt: table)
        let firstLoad = monotonicMilliseconds() - start
        malloc_trim(0)
        let residentAdded = BenchmarkLibrary.residentMegabytes(ofProcess: getpid()) - residentBefore
        var loads = Measurements()
        for _ in 0..<5 {
            start = monotonicMilliseconds()
            _ = try ReverseGeocoder(tableAt: table)
            loads.append(monotonicMilliseconds() - start)
        }

        var rounds = Measurements()
        var named = 0
        for _ in 0..<3 {
            named = 0
            start = monotonicMilliseconds()
            for point in points where geocoder.place(latitude: point.latitude, longitude: point.longitude) != nil {
                named += 1
            }
            rounds.append((monotonicMilliseconds() - start) * 1000 / Double(lookups))
        }

        let peerRun = try runTool("/usr/bin/env", ["python3", "Benchmarks/reverse_geocoder_peer.py", pointsFile])
        let peer = try JSONDecoder().decode(PeerFigures.self, from: Data(peerRun.output.utf8))

        let perLookup = rounds.median
        print(
            String(
                format: "%d lookups: %.2f µs each (%.1f s), %d named (%.1f%%)", lookups, perLookup,
                perLookup * Double(lookups) / 1e6, named, Double(named) * 100 / Double(lookups)))
        print(
            String(
                format: "reverse_geocoder: %.2f µs each in one batch, %.2f µs one call per point",
                peer.batchMicroseconds, peer.singleMicroseconds))
        print(
            String(
                format: "load: %.0f ms first, %.0f ms median of 5 (reverse_geocoder: %.0f ms)", firstLoad,
                loads.median, peer.loadMilliseconds))
        print(
            String(
                format: "resident memory added: %.1f MB (reverse_geocoder: %.1f MB)", residentAdded,
                peer.residentMegabytesAdded))
        print(
            String(
                format: "ratio, ours ÷ reverse_geocoder: %.2f× (batch), %.2f× (one call per point)",
                perLookup / peer.batchMicroseconds, perLookup / peer.singleMicroseconds))

        let name = "reverse geocoding, \(lookups) points near places"
        BenchmarkRecord.figure(
            name + ": per lookup", ours: perLookup, peer: peer.batchMicroseconds,
            peerName: "reverse_geocoder, one batch", unit: "µs", target: "≤ 20 µs")
        BenchmarkRecord.figure(
            "… per lookup, one call per point", ours: perLookup, peer: peer.singleMicroseconds,
            peerName: "reverse_geocoder, one call per point", unit: "µs", target: "≤ 20 µs")
        BenchmarkRecord.figure(
            "… place table load", ours: loads.median, peer: peer.loadMilliseconds,
            peerName: "reverse_geocoder", unit: "ms", target: "")
        BenchmarkRecord.figure(
            "… resident memory added", ours: residentAdded, peer: peer.residentMegabytesAdded,
            peerName: "reverse_geocoder", unit: "MB", target: "≤ 15 MB")
    }

    struct PeerFigures: Decodable {
        let loadMilliseconds: Double
        let residentMegabytesAdded: Double
        let batchMicroseconds: Double
        let singleMicroseconds: Double
    }

    /// `count` points, each a random place of the table moved by up to 0.25° either way, the same for every run.
    static func pointsNearPlaces(in table: String, count: Int) throws -> [(latitude: Double, longitude: Double)] {
        var configuration = Configuration()
        configuration.readonly = true
        let places = try DatabaseQueue(path: table, configuration: configuration).read { db in
            let sql = "SELECT latitudeMicrodegrees / 1e6, longitudeMicrodegrees / 1e6 FROM place ORDER BY id"
            return try Row.fetchAll(db, sql: sql).map { (latitude: $0[0] as Double, longitude: $0[1] as Double) }
        }
        var random = SplitMix64(seed: 47)
        return (0..<count).map { _ in
            let place = places[Int(random.next() % UInt64(places.count))]
            let latitude = max(-90, min(90, place.latitude + random.unit() * 0.5 - 0.25))
            var longitude = place.longitude + random.unit() * 0.5 - 0.25
            if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            return (latitude, longitude)
        }
    }
}

/// A small seeded generator (Steele, Lea and Flood's SplitMix64): the same points on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
