import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// The wall clock jumps back a day under the daemon (its own clock: the machine's is left alone).
@Suite(.serialized)
struct ClockJumpTests {
    @Test func aClockThatJumpsBackADayIsNoticedOnceAndLosesNothing() async throws {
        let clock = try ClockShift(), drop = try TemporaryDirectory()
        let daemon = try DaemonProcess(extraConfig: "[[source]]\npath = \"\(drop.path)\"\nmode = \"move\"\n")
        try await daemon.start(environment: clock.environment)
        let library = try await WatchedLibrary(daemon: daemon)
        try MediaFixtures.writeVariants(0..<2, in: drop.path)
        try await library.waitUntil(timeout: 60, "the first drops are imported") { try await library.assets().count == 2 }

        clock.set(offset: -86_400)
        #expect(try await eventually(timeout: .seconds(30)) { daemon.log().contains("The clock jumped back by 86400 s") })
        try MediaFixtures.writeVariants(2..<4, in: drop.path)
        try await library.waitUntil(timeout: 60, "the later drops are imported") { try await library.assets().count == 4 }
        let ids = try await library.assets().map(\.id)
        var trash = PhotoLibrary.ChangeBuilder()
        trash.deleteAssets([ids[0]])
        _ = try await library.client.performChanges(trash)
        var restore = PhotoLibrary.ChangeBuilder()
        restore.restoreAssets([ids[0]])
        restore.setFavorite(true, for: ids)
        _ = try await library.client.performChanges(restore)
        #expect(try await library.assets().filter(\.isFavorite).count == 4)
        try await Task.sleep(for: .seconds(6))
        #expect(daemon.log().components(separatedBy: "The clock jumped").count == 2, "one log line for one jump")

        let restarted = try await library.restarted()
        #expect(try await restarted.assets().count == 4)
        await restarted.client.close()
        try await daemon.stop()
    }
}
