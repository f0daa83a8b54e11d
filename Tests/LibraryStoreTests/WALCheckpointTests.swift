import Foundation
import PhotoModel
import Testing
@testable import LibraryStore

/// The write-ahead log is checkpointed beside the writes (not in the commit that fills it), and still is.
struct WALCheckpointTests {
    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test func theLogIsCopiedIntoTheDatabaseOnceItPassesItsLimit() async throws {
        let (database, path) = try makeDatabase()
        let initialSize = fileSize(path)
        // Each round writes a few hundred pages to the log; the main file only grows when a checkpoint copies them.
        for round in 0..<8 {
            _ = try await database.insert((0..<400).map { draft("r\(round)-\($0).jpg") })
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while fileSize(path) <= initialSize, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(fileSize(path) > initialSize)
        #expect(try await database.fetchAssets(AssetQuery(), pageSize: 1).count == 3_200)
    }

    @Test func writesWithoutPauseKeepTheLogBounded() async throws {
        let (database, path) = try makeDatabase()
        let pageSize = try await database.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size")! }
        var largestLog = 0
        // Some 23,000 pages in all (a 94 MB log when nothing restarts it), each write a few hundred, the next one
        // starting as soon as the last commits.
        for round in 0..<40 {
            _ = try await database.insert((0..<400).map { draft("r\(round)-\($0).jpg") })
            largestLog = max(largestLog, fileSize(path + "-wal"))
        }
        #expect(largestLog <= Int(WALCheckpointer.writerPageLimit + 1_000) * pageSize)
    }
}
