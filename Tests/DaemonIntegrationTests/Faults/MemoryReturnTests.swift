import Foundation
import Testing
import TestSupport
import Varlink

/// Memory a burst of clients took is given back once they leave.
@Suite(.serialized)
struct MemoryReturnTests {
    @Test func theMemoryOfTwelveFifteenMebibyteCallsIsReturnedOnceTheirClientsLeave() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let warmUp = try await daemon.connect()
        _ = try await warmUp.call("io.photolibd.Library.FetchAssets", parameters: ["query": [:]])
        await warmUp.close()
        try await Task.sleep(for: .seconds(2))
        let before = try #require(daemon.residentKilobytes)
        let predicate = JSONValue.string("originalFilename == '" + String(repeating: "x", count: 15 << 20) + "'")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    let connection = try await daemon.connect()
                    // Refused (longer than a predicate may be), after the whole message was read and parsed.
                    _ = try? await connection.call("io.photolibd.Library.FetchAssets",
                                                   parameters: ["query": ["predicate": predicate]])
                    await connection.close()
                }
            }
            try await group.waitForAll()
        }
        var after = Int.max
        let returned = try await eventually(timeout: .seconds(20)) {
            after = daemon.residentKilobytes ?? .max
            return after < before + 40_000
        }
        #expect(returned, "resident memory went from \(before / 1_000) MB to \(after / 1_000) MB and stayed there")
        #expect(daemon.isRunning)
        try await daemon.stop()
    }
}
