import BenchmarkSupport
import Foundation
import PhotoLibrary

/// Builds a library of N assets through the store, then times `FetchAssets` over the socket of a real
/// `photolibd` beside the `sqlite3` command line running the same queries on the same file.
@main
struct FetchBenchmark {
    static func main() async throws {
        let arguments = BenchmarkArguments.parse(command: "fetch-benchmark", defaultAssets: 100_000)
        let assetCount = arguments.assetCount, rounds = arguments.rounds
        let databasePath = try await BenchmarkLibrary.build(in: arguments.work, count: assetCount)
        let (daemon, socket) = try await BenchmarkLibrary.startDaemon(arguments.daemonBinary, work: arguments.work)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let library = try await PhotoLibrary.connect(socketPath: socket)

        let firstPage = try await library.fetchAssets(pageSize: 500)
        precondition(firstPage.assets.count == 500 && firstPage.count == assetCount)

        let visible = "isHidden = 0 AND trashedTime IS NULL"
        let pageSQL = """
            SELECT id, mediaType, mediaSubtypes, pixelWidth, pixelHeight, orientation, creationTime, creationOffset,
            creationDateSource, modificationTime, addedTime, latitude, longitude, altitude, duration, isFavorite, isHidden,
            trashedTime, burstIdentifier, originalFilename, fileSize FROM asset WHERE \(visible)
            ORDER BY creationTime, id LIMIT 500;
            """
        let countSQL = "SELECT count(*) FROM asset WHERE \(visible);"

        let raw = try RawVarlinkClient(socketPath: socket)
        print("\nFetchAssets over the socket vs sqlite3 on \(databasePath), \(rounds) rounds each (milliseconds)")
        print("socket: call to last reply byte; client: the same through the PhotoLibrary module, JSON decoded into Assets")
        print("query                     | socket median   p90 | client median | sqlite3 process median | sqlite3 .timer | socket/process")
        for (name, pageSize, sql) in [("first 500 by creationDate", 500, pageSQL), ("total count", 0, countSQL)] {
            var socketTimes = Measurements(), clientTimes = Measurements()
            let call = #"{"method":"io.photolibd.Library.FetchAssets","parameters":{"query":{},"pageSize":\#(pageSize)}}"#
            for _ in 0..<rounds {
                var start = monotonicMilliseconds()
                _ = try raw.call(call)
                socketTimes.append(monotonicMilliseconds() - start)
                start = monotonicMilliseconds()
                _ = try await library.fetchAssets(pageSize: pageSize)
                clientTimes.append(monotonicMilliseconds() - start)
            }
            var processTimes = Measurements(), timerTimes = Measurements()
            for _ in 0..<min(rounds, 100) {
                let start = monotonicMilliseconds()
                let output = try runSQLite3(databasePath, ".timer on\n" + sql)
                processTimes.append(monotonicMilliseconds() - start)
                if let real = output.split(separator: "\n").last(where: { $0.hasPrefix("Run Time: real") })?
                    .split(separator: " ").dropFirst(3).first.flatMap({ Double($0) }) {
                    timerTimes.append(real * 1000)
                }
            }
            print(String(format: "%-25@ | %13.2f %5.2f | %13.2f | %22.2f | %14.2f | %.2fx",
                         name as NSString, socketTimes.median, socketTimes.percentile(0.9), clientTimes.median,
                         processTimes.median, timerTimes.median, socketTimes.median / processTimes.median))
            BenchmarkRecord.figure("FetchAssets \(name), \(assetCount) assets", ours: socketTimes.median, peer: processTimes.median,
                                   peerName: "sqlite3 process", unit: "ms", target: "")
            BenchmarkRecord.scaling("FetchAssets \(name) over the socket", size: arguments.assetCount, value: socketTimes.median, unit: "ms")
        }
        await library.close()
    }
}
