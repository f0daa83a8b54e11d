import ArgumentParser
import Foundation
import JournalLogging
import Logging
import PhotolibConfig
import PhotolibDaemon

public struct PhotolibdCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "photolibd",
        abstract: "The photo-library daemon: watches import folders and serves the library over varlink.",
        discussion: """
            photolibd keeps a photo library (SQLite and a store of originals and edits), imports what is dropped \
            into its watched folders, keeps a thumbnail cache, and serves the io.photolibd.Library, \
            io.photolibd.Images and io.photolibd.Import varlink interfaces on a Unix socket to photolib(1) and any \
            varlink client. Without --config it reads the user's ~/.config/photolibd/photolibd.conf (with --system, \
            /etc/photolibd/photolibd.conf) if it exists, else runs on built-in defaults; see photolibd.conf(5).

            Under systemd it is socket-activated: photolibd.socket, which the package enables and starts for the \
            system daemon (a user enables their own with systemctl --user enable --now photolibd.socket), listens \
            and starts photolibd.service with the first connection. The daemon takes the listening socket systemd \
            passes, reports READY=1 and STATUS= lines, and feeds the watchdog while its event loop and database \
            writer answer. One daemon serves a library: a second one on the same library exits at once.

            Signals: SIGHUP re-reads the configuration and applies sources, access, cache budget, retention and \
            freedesktop.org thumbnails without dropping clients (a file with an error is refused and the running \
            configuration stays). SIGTERM and SIGINT stop it: Observe streams end with ServiceStopping, calls in \
            progress get up to 10 seconds, imports not finished are taken up at the next start.

            Environment: PHOTOLIBD_SOCKET overrides the socket path; XDG_RUNTIME_DIR, XDG_DATA_HOME, XDG_CACHE_HOME \
            and XDG_CONFIG_HOME place a user daemon's files (photolibd(8) says more).
            """,
        version: Daemon.version
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The TOML configuration file (default: the user's or /etc's photolibd.conf, else built-in defaults).",
            valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "Run as the system daemon (system paths and /run/photolibd/socket).")
    var system = false

    @Option(
        name: .long,
        help: ArgumentHelp("Log level: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel: String = "info"

    public init() {}

    public func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
        // A log reader or client gone away is an error to handle (EPIPE), not a reason to die.
        signal(SIGPIPE, SIG_IGN)
        let forJournal = environment["JOURNAL_STREAM"] != nil
        LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: level, forJournal: forJournal) }
        let logger = Logger(label: "photolibd")
        do {
            let read = { @Sendable [config, system] () throws -> DaemonConfiguration in
                try DaemonConfiguration.resolve(configFile: config, environment: environment, system: system)
            }
            try await Daemon(
                configuration: try read(), environment: environment, reloadConfiguration: read, logger: logger
            ).run()
        } catch {
            logger.critical("photolibd cannot run: \(error)")
            throw ExitCode.failure
        }
    }
}
