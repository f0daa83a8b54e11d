import Logging
import Synchronization
import Testing

@testable import DaemonCore

/// The levels of the lines a logger wrote.
private final class LoggedLevels: Sendable {
    let levels = Mutex<[Logger.Level]>([])
}

private struct LevelRecorder: LogHandler {
    let logged: LoggedLevels
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        logged.levels.withLock { $0.append(event.level) }
    }
}

/// Upkeep rounds: one that fails is an error in the log; one that shutdown stops is not.
struct LibraryUpkeepTests {
    /// Runs an upkeep whose round is `round` until its first round has begun, then cancels it, as shutdown does;
    /// returns the levels it logged.
    private func levelsLogged(by round: @escaping @Sendable () async throws -> Void) async -> [Logger.Level] {
        let logged = LoggedLevels()
        let started = AsyncStream<Void>.makeStream()
        let logger = Logger(label: "test") { _ in LevelRecorder(logged: logged) }
        let upkeep = LibraryUpkeep(task: "test", logger: logger, pause: { _ in .seconds(3_600) }) {
            started.continuation.yield()
            try await round()
        }
        let running = Task { await upkeep.run() }
        for await _ in started.stream { break }
        try? await Task.sleep(for: .milliseconds(50))
        running.cancel()
        await running.value
        return logged.levels.withLock { $0 }
    }

    @Test func aRoundThatShutdownStopsIsNoError() async {
        #expect(await levelsLogged { try await Task.sleep(for: .seconds(3_600)) } == [])
    }

    @Test func aRoundThatFailsIsAnError() async {
        struct Failure: Error {}
        #expect(await levelsLogged { throw Failure() } == [.error])
    }
}
