import Foundation
import LibraryStore
import PhotoLibrary

/// Builds a library of N assets through the store, then times `FetchAssets` over the socket of a real
/// `photolibd` beside the `sqlite3` command line running the same queries on the same file.
@main
struct FetchBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else {
            print("usage: fetch-benchmark PHOTOLIBD_BINARY WORK_DIRECTORY [ASSETS] [ROUNDS]")
            exit(2)
        }
        let daemonBinary = arguments[1], work = arguments[2]
        let assetCount = arguments.count > 3 ? Int(arguments[3])! : 100_000
        let rounds = arguments.count > 4 ? Int(arguments[4])! : 200
        let library = work + "/library"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let databasePath = library + "/library.sqlite"

        if !FileManager.default.fileExists(atPath: databasePath) {
            let started = Date()
            let database = try LibraryDatabase(path: databasePath)
            try await populate(database, count: assetCount)
            print("built \(assetCount) assets through the store in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        }

        let socket = work + "/socket"
        try """
            library = "\(library)"
            cache = "\(work)/cache"
            socket = "\(socket)"
            source = []
            """.write(toFile: work + "/photolibd.conf", atomically: true, encoding: .utf8)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: daemonBinary)
        daemon.arguments = ["--config", work + "/photolibd.conf", "--log-level", "warning"]
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        var connected: PhotoLibrary?
        for _ in 0..<200 where connected == nil {
            connected = try? await PhotoLibrary.connect(socketPath: socket)
            if connected == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        guard let library = connected else { fatalError("photolibd did not start") }

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

        print("\nFetchAssets over the socket vs sqlite3 on \(databasePath), \(rounds) rounds each (milliseconds)")
        print("query                     | photolibd median  p90 | sqlite3 process median | sqlite3 .timer median | ratio")
        for (name, pageSize, sql) in [("first 500 by creationDate", 500, pageSQL), ("total count", 0, countSQL)] {
            var socketTimes: [Double] = []
            for _ in 0..<rounds {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try await library.fetchAssets(pageSize: pageSize)
                socketTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            var processTimes: [Double] = []
            var timerTimes: [Double] = []
            for _ in 0..<min(rounds, 100) {
                let start = DispatchTime.now().uptimeNanoseconds
                let output = try sqlite3(databasePath, ".timer on\n" + sql)
                processTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                if let real = output.split(separator: "\n").last(where: { $0.hasPrefix("Run Time: real") })?
                    .split(separator: " ").dropFirst(3).first.flatMap({ Double($0) }) {
                    timerTimes.append(real * 1000)
                }
            }
            let socketMedian = median(socketTimes), processMedian = median(processTimes)
            print(String(format: "%-25@ | %16.2f %5.2f | %22.2f | %21.2f | %.2fx",
                         name as NSString, socketMedian, percentile(socketTimes, 0.9), processMedian, median(timerTimes),
                         socketMedian / processMedian))
        }
        await library.close()
    }

    /// Inserts `count` photo assets in transactions of 1,000, dates spread over ten years.
    static func populate(_ database: LibraryDatabase, count: Int) async throws {
        var generator = SystemRandomNumberGenerator()
        for batchStart in stride(from: 0, to: count, by: 1_000) {
            let size = min(1_000, count - batchStart)
            var drafts: [Int: AssetDraft] = [:]
            var changes: [LibraryChange] = []
            for index in 0..<size {
                let number = batchStart + index
                let created = 1_400_000_000 + Double(generator.next() % 315_360_000)
                drafts[index] = AssetDraft(
                    mediaType: .image, pixelWidth: 4032, pixelHeight: 3024, orientation: 1,
                    creationDate: Timestamp(secondsSince1970: created, utcOffsetSeconds: 3_600), creationDateSource: .exif,
                    location: Location(latitude: 48.85, longitude: 2.29), contentHash: "benchmark-\(number)",
                    resources: [DraftResource(type: .photo, originalFilename: "IMG_\(number).jpg", mimeType: "image/jpeg",
                                              fileSize: 3_500_000, path: "/benchmark/IMG_\(number).jpg", isOwnedByLibrary: false)])
                changes.append(.createAsset(path: "/benchmark/IMG_\(number).jpg", placeholder: nil))
            }
            _ = try await database.performChanges(changes, drafts: drafts)
        }
    }

    static func sqlite3(_ database: String, _ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [database]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
    }
}
