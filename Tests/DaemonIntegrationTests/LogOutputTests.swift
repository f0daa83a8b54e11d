import Foundation
import Glibc
import Testing
import TestSupport

/// A log write that fails never stops the daemon: its reader may go away (`photolibd | tail` ended with Ctrl-C,
/// a journald stream broken).
@Suite(.serialized)
struct LogOutputTests {
    @Test func theDaemonOutlivesTheReaderOfItsLogAndStopsCleanly() async throws {
        let paths = try DaemonProcess()
        let log = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonProcess.productsDirectory + "/photolibd")
        process.arguments = ["--config", paths.configPath, "--log-level", "debug"]
        process.standardError = log
        process.standardOutput = log
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(" listening socket=") {
            let chunk = log.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "the daemon ended before listening: \(String(decoding: seen, as: UTF8.self))")
            seen += chunk
        }
        try log.fileHandleForReading.close()
        try? log.fileHandleForWriting.close()

        // Each of these logs lines into the closed pipe.
        kill(process.processIdentifier, SIGHUP)
        let connection = try await paths.connect()
        _ = try? await connection.call("io.photolibd.Library.FetchAssets", parameters: ["query": ["predicate": "nonsense =="]])
        await connection.close()
        try await Task.sleep(for: .milliseconds(300))
        #expect(process.isRunning)

        process.terminate()
        #expect(try await eventually(timeout: .seconds(60)) { !process.isRunning })
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: paths.socketPath))
    }
}
