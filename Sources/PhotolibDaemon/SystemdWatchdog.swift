import DaemonCore
import Glibc
import LibraryStore
import Logging
import NIOCore
import ServiceLifecycle

/// Sends `WATCHDOG=1` at half of `WATCHDOG_USEC`, each time only after the daemon's parts have answered: an event
/// loop of the socket ran a task and the database writer ran an empty step. A daemon stuck in either misses
/// its pings and systemd restarts it.
struct SystemdWatchdog: NamedService {
    let interval: Duration
    let eventLoops: any EventLoopGroup
    let database: LibraryDatabase
    let environment: [String: String]
    let logger: Logger

    /// The watchdog systemd asked for, if any: `WATCHDOG_USEC`, for this process when `WATCHDOG_PID` names one.
    init?(eventLoops: any EventLoopGroup, database: LibraryDatabase, environment: [String: String], logger: Logger) {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 else {
            return nil
        }
        if let pid = environment["WATCHDOG_PID"], pid != String(getpid()) { return nil }
        interval = .microseconds(microseconds / 2)
        self.eventLoops = eventLoops
        self.database = database
        self.environment = environment
        self.logger = logger
    }

    func run() async throws {
        logger.debug("watchdog on", metadata: ["interval": "\(interval)"])
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                try await eventLoops.next().submit {}.get()
                try await database.answersWrites()
                SystemdNotifier.notify("WATCHDOG=1", environment: environment)
            } catch {
                logger.warning("The watchdog check failed, so systemd is not told the daemon is alive: \(error)")
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
