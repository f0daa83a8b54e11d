import Foundation
import Glibc
import PhotoLibrary
import TestSupport
import Testing
import Varlink

/// The daemon as a systemd service: socket activation, sd_notify, reload, watchdog, one daemon per library and
/// draining at stop, checked with Debian's `systemd-socket-activate` and a `NOTIFY_SOCKET` of the test's own.
@Suite(.serialized)
struct ServiceTests {
    @Test func socketActivationAnswersTheFirstCallAndLeavesTheSocketToSystemd() async throws {
        let activated = try DaemonProcess()
        // systemd-socket-activate listens on the socket the config names and starts the daemon at the first connection.
        activated.launcher = DaemonProcess.socketActivationLauncher(
            socketPath: activated.socketPath, passing: ["NOTIFY_SOCKET"])
        try FileManager.default.createDirectory(
            atPath: (activated.socketPath as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        let notify = try NotifySocket(path: activated.directory + "/notify")
        try await activated.start(environment: notify.environment)
        let library = try await PhotoLibrary.connect(socketPath: activated.socketPath)
        #expect(try await library.fetchAllAssets(matching: AssetQuery()).assets.isEmpty)
        await library.close()
        #expect(try await eventually(timeout: .seconds(30)) { notify.assignments.contains("READY=1") })
        let log = activated.log()
        #expect(log.components(separatedBy: " listening").count == 2, "says listening once:\n\(log)")
        #expect(try await activated.stop() == 0)
        // The socket file is systemd's: the daemon leaves it in place.
        #expect(FileManager.default.fileExists(atPath: activated.socketPath))
        #expect(notify.assignments.contains("STOPPING=1"))
    }

    @Test func aHangUpAddsASourceWhileAnObserverStaysConnected() async throws {
        let daemon = try DaemonProcess()
        let notify = try NotifySocket(path: daemon.directory + "/notify")
        try await daemon.start(environment: notify.environment)
        let observer = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        var events = observer.observe().makeAsyncIterator()
        #expect(try #require(try await events.next()).isSnapshot)

        let drop = daemon.directory + "/drop"
        try FileManager.default.createDirectory(atPath: drop, withIntermediateDirectories: true)
        try rewriteConfig(of: daemon, sources: "[[source]]\npath = \"\(drop)\"\nmode = \"copy\"\n")
        daemon.send(SIGHUP)
        #expect(try await eventually(timeout: .seconds(30)) { daemon.log().contains("configuration reloaded") })
        // The notifications can reach the test's socket after the log line: wait for READY=1 after RELOADING=1.
        #expect(
            try await eventually(timeout: .seconds(30)) {
                let assignments = notify.assignments
                return assignments.lastIndex(of: "RELOADING=1").map { assignments[$0...].contains("READY=1") } ?? false
            })
        #expect(notify.assignments.contains { $0.hasPrefix("MONOTONIC_USEC=") })

        try MediaFixtures.writeVariants(0..<1, in: drop)
        let event = try #require(try await events.next())
        #expect(event.objects.filter { $0.kind == .asset }.map(\.change) == [.inserted])
        // The observer's connection is busy with its stream: ask on another.
        let other = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        #expect(try await other.listSources().map(\.path) == [drop])
        await other.close()
        await observer.close()
    }

    @Test func aHangUpWithABrokenConfigChangesNothing() async throws {
        let drop = try TemporaryDirectory()
        let daemon = try DaemonProcess(extraConfig: "[[source]]\npath = \"\(drop.path)\"\nmode = \"copy\"\n")
        let notify = try NotifySocket(path: daemon.directory + "/notify")
        try await daemon.start(environment: notify.environment)
        let client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        var events = client.observe(assetQueries: ["library": AssetQuery()]).makeAsyncIterator()
        _ = try await events.next()
        let configBefore = try String(contentsOfFile: daemon.configPath, encoding: .utf8)
        try (configBefore + "\ntrash_retention_days = \"soon\"\n").write(
            toFile: daemon.configPath, atomically: true,
            encoding: .utf8)
        daemon.send(SIGHUP)
        #expect(try await eventually(timeout: .seconds(30)) { daemon.log().contains("was not reloaded") })
        #expect(
            notify.assignments.contains {
                $0.hasPrefix("STATUS=configuration not reloaded:") && $0.contains("trash_retention_days")
            })
        #expect(notify.assignments.last { $0.hasPrefix("RELOADING=1") || $0 == "READY=1" } == "READY=1")
        // The old sources still import, and the observer that was connected sees it.
        let other = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        #expect(try await other.listSources().map(\.path) == [drop.path])
        await other.close()
        try MediaFixtures.writeVariants(0..<1, in: drop.path)
        #expect(try #require(try await events.next()).results.first?.count == 1)
        #expect(daemon.isRunning)
        await client.close()
    }

    @Test func theWatchdogIsFedWhileThePartsAnswer() async throws {
        let daemon = try DaemonProcess()
        let notify = try NotifySocket(path: daemon.directory + "/notify")
        try await daemon.start(environment: notify.environment.merging(["WATCHDOG_USEC": "400000"]) { $1 })
        let pings = { notify.assignments.filter { $0 == "WATCHDOG=1" }.count }
        #expect(try await eventually(timeout: .seconds(30)) { pings() >= 3 })
        let before = pings(), started = ContinuousClock.now
        try await Task.sleep(for: .seconds(1))
        let seconds =
            Double((ContinuousClock.now - started).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - started).components.seconds)
        // Half the interval: about five a second, never faster, over however long the sleep really took.
        let count = pings() - before
        #expect(count >= 2 && count <= Int(seconds / 0.2) + 1, "\(count) pings in \(seconds) s")
        #expect(notify.assignments.contains { $0.hasPrefix("STATUS=idle with 0 assets") })
    }

    /// An admin's `top -H` or `ps -L` tells the render threads from the rest, one per core.
    @Test func theRenderThreadsCarryTheirNamesInTheKernel() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let tasks = "/proc/\(try #require(daemon.processIdentifier))/task"
        func threadNames() -> [String] {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
            return threads.compactMap { task in
                try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
            }
        }
        let expected = Set((0..<ProcessInfo.processInfo.activeProcessorCount).map { "render-\($0)" })
        let named = try await eventually(timeout: .seconds(10)) {
            Set(threadNames().filter { $0.hasPrefix("render-") }) == expected
        }
        #expect(named, "\(threadNames())")
        try await daemon.stop()
    }

    @Test func aSecondDaemonOnTheLibraryLeavesItUntouched() async throws {
        let first = try DaemonProcess()
        try await first.start()
        let database = first.libraryPath + "/library.sqlite"
        let before = try FileManager.default.attributesOfItem(atPath: database)[.modificationDate] as? Date
        try await Task.sleep(for: .milliseconds(50))

        // Another socket, the same library.
        let secondConfig = first.directory + "/second.conf"
        try (try String(contentsOfFile: first.configPath, encoding: .utf8))
            .replacingOccurrences(of: first.socketPath, with: first.directory + "/second.socket")
            .write(toFile: secondConfig, atomically: true, encoding: .utf8)
        let run = try runDaemonToExit(config: secondConfig)
        #expect(run.status == 1)
        #expect(
            run.output.contains(
                "another photolibd (pid \(try #require(first.processIdentifier))) already serves the library"),
            "\(run.output)")
        #expect(run.output.contains(first.socketPath))
        #expect(!run.output.contains("library open"))
        let after = try FileManager.default.attributesOfItem(atPath: database)[.modificationDate] as? Date
        #expect(before == after)
        #expect(!FileManager.default.fileExists(atPath: first.directory + "/second.socket"))
        // The first one is unharmed.
        let client = try await PhotoLibrary.connect(socketPath: first.socketPath)
        #expect(try await client.fetchAllAssets(matching: AssetQuery()).assets.isEmpty)
        await client.close()
    }

    @Test func stoppingEndsObserversCleanlyAndLosesNoImport() async throws {
        let drop = try TemporaryDirectory()
        let daemon = try DaemonProcess(extraConfig: "[[source]]\npath = \"\(drop.path)\"\nmode = \"move\"\n")
        try await daemon.start()
        let observer = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        var events = observer.observe(assetQueries: ["library": AssetQuery()]).makeAsyncIterator()
        _ = try await events.next()

        let count = 40
        try MediaFixtures.writeVariants(0..<count, in: drop.path)
        // Stop while the import runs.
        let status = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        _ = try await eventually(timeout: .seconds(30)) { try await status.importStatus().imported > 0 }
        daemon.send(SIGTERM)
        var ending: PhotoLibraryError?
        do {
            while try await events.next() != nil {}
        } catch let error as PhotoLibraryError {
            ending = error
        }
        #expect(ending?.code == .daemonStopping, "the stream ended with \(String(describing: ending))")
        #expect(try await daemon.waitForExit() == 0)
        await observer.close()
        await status.close()

        // Whatever was not committed is imported at the next start, each file once.
        try await daemon.start()
        let library = try await WatchedLibrary(daemon: daemon)
        try await library.waitUntil("every dropped file is imported") { try await library.assets().count == count }
        #expect(Set(try await library.assets().map(\.originalFilename)).count == count)
        await library.client.close()
    }

    // MARK: Helpers

    /// Replaces the config's sources (the harness writes `source = []`) with `sources`.
    private func rewriteConfig(of daemon: DaemonProcess, sources: String) throws {
        let config =
            try String(contentsOfFile: daemon.configPath, encoding: .utf8)
            .replacingOccurrences(of: "source = []", with: "") + "\n" + sources
        try config.write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
    }

    /// Runs `photolibd --config CONFIG` until it exits by itself (10 s at most); its status and everything it wrote.
    private func runDaemonToExit(config: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonProcess.productsDirectory + "/photolibd")
        process.arguments = ["--config", config]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (
            process.terminationStatus,
            String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }
}
