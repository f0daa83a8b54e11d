import DaemonCore
import Foundation
import Logging
import PhotolibConfig
import ServiceLifecycle
import UnixSignals

/// Reloads the configuration at each SIGHUP (`systemctl reload`), between `RELOADING=1` and `READY=1`: sources,
/// the access policy, the cache budget, retention and freedesktop.org thumbnails change without dropping a
/// connection or an observer. A file with an error changes nothing; the reason goes to the log and `STATUS=`.
struct ConfigurationReloader: NamedService {
    /// Applies the settings that can change while running.
    let core: LibraryCore
    let read: @Sendable () throws -> DaemonConfiguration
    let environment: [String: String]
    let logger: Logger

    func run() async throws {
        let hangUps = await UnixSignalsSequence(trapping: .sighup)
        await cancelWhenGracefulShutdown {
            for await _ in hangUps {
                await reload()
            }
        }
    }

    func reload() async {
        SystemdNotifier.notify("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())", environment: environment)
        defer { SystemdNotifier.notify("READY=1", environment: environment) }
        let new: DaemonConfiguration
        do {
            new = try read()
        } catch {
            logger.error(
                "The configuration was not reloaded, and the daemon keeps running with the one it had: \(error)")
            SystemdNotifier.notify("STATUS=configuration not reloaded: \(error)", environment: environment)
            return
        }
        for (name, changed) in Self.fixedSettings(core.configuration, new) where changed {
            logger.warning("The \(name) changed in the configuration; restart the daemon to apply it")
        }
        await core.reconfigure(new)
        logger.notice("configuration reloaded", metadata: ["sources": "\(new.sources.count)"])
    }

    /// Settings that only take effect at start, and whether each differs.
    private static func fixedSettings(_ old: DaemonConfiguration, _ new: DaemonConfiguration) -> [(String, Bool)] {
        [
            ("library folder", old.libraryPath != new.libraryPath), ("cache folder", old.cachePath != new.cachePath),
            ("socket", old.socketPath != new.socketPath),
            ("image pixel limit", old.maximumImagePixels != new.maximumImagePixels),
        ]
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}
