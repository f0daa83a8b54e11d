import ArgumentParser
import Foundation
import Logging
import PhotolibConfig
import PhotolibDaemon

@main
struct PhotolibdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photolibd",
        abstract: "The photo-library daemon: watches import folders and serves the library over varlink.",
        version: Daemon.version
    )

    @Option(name: .long, help: "The TOML configuration file (default: the user's or /etc's photolibd.conf, else built-in defaults).")
    var config: String?

    @Flag(name: .long, help: "Run as the system daemon (system paths and /run/photolibd/socket).")
    var system = false

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
        let forJournal = environment["JOURNAL_STREAM"] != nil
        LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: level, forJournal: forJournal) }
        let logger = Logger(label: "photolibd")
        do {
            let read = { @Sendable [config, system] () throws -> DaemonConfiguration in
                try DaemonConfiguration.resolve(configFile: config, environment: environment, system: system)
            }
            try await Daemon(configuration: try read(), environment: environment, reloadConfiguration: read, logger: logger).run()
        } catch {
            logger.critical("photolibd cannot run: \(error)")
            throw ExitCode.failure
        }
    }
}
