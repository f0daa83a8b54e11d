import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// A backup tool reads the library's database in one long read transaction (as `sqlite3 .backup` or a file-level
/// tool holding a snapshot does): the daemon's writes go on meanwhile, and its log is taken back afterwards.
@Suite(.serialized)
struct BackupReaderTests {
    @Test func aReadTransactionHeldForAMinuteHoldsUpNoImportAndNoChange() async throws {
        let drop = try TemporaryDirectory()
        let library = try await WatchedLibrary.start(sources: [(drop.path, "move")])
        try MediaFixtures.writeVariants(0..<3, in: drop.path)
        try await library.waitUntil(timeout: 60, "the first drops are imported") { try await library.assets().count == 3 }

        let backup = Process()
        backup.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        backup.arguments = [library.daemon.libraryPath + "/library.sqlite"]
        let commands = Pipe()
        backup.standardInput = commands
        backup.standardOutput = FileHandle.nullDevice
        try backup.run()
        commands.fileHandleForWriting.write(Data("BEGIN; SELECT count(*) FROM asset;\n".utf8))
        let started = ContinuousClock.now
        var index = 3
        var slowest = Duration.zero
        while started.duration(to: .now) < .seconds(60) {
            try MediaFixtures.writeVariants(index..<index + 2, in: drop.path)
            index += 2
            let ids = try await library.assets().map(\.id)
            var changes = PhotoLibrary.ChangeBuilder()
            changes.setFavorite(index % 4 == 1, for: ids)
            let before = ContinuousClock.now
            _ = try await library.client.performChanges(changes)
            slowest = max(slowest, before.duration(to: .now))
            try await Task.sleep(for: .seconds(2))
        }
        try await library.waitUntil(timeout: 60, "every drop is imported while the backup reads") {
            try await library.assets().count == index && filesUnder(drop.path).isEmpty
        }
        #expect(backup.isRunning, "the backup held its transaction all along")
        // A change held up by the backup would wait out the writer's busy timeout (10 s) or the backup itself (a
        // minute); a change slowed only by a busy machine (the tests running beside this one) takes a few seconds.
        #expect(slowest < .seconds(8), "a change waited \(slowest) behind the backup's read")

        commands.fileHandleForWriting.write(Data("COMMIT;\n".utf8))
        try commands.fileHandleForWriting.close()
        backup.waitUntilExit()
        for _ in 0..<3 {
            var changes = PhotoLibrary.ChangeBuilder()
            changes.setFavorite(false, for: try await library.assets().map(\.id))
            _ = try await library.client.performChanges(changes)
        }
        #expect(try await library.assets().count == index)
        await library.client.close()
        try await library.daemon.stop()
    }
}
