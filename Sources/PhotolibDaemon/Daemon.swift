import DaemonCore
import Foundation
import Imaging
import LibraryStore
import Logging
import MediaProbe
import NIOCore
import NIOPosix
import PhotolibConfig
import PhotolibProtocol
import ServiceLifecycle
import Varlink

/// The photolibd daemon: opens the library and serves it on the varlink socket until asked to stop.
public struct Daemon: Sendable {
    public static let version = PhotolibVersion.current

    let configuration: DaemonConfiguration
    let environment: [String: String]
    /// Reads the configuration again, for a reload (SIGHUP).
    let reloadConfiguration: @Sendable () throws -> DaemonConfiguration
    let logger: Logger

    public init(
        configuration: DaemonConfiguration, environment: [String: String],
        reloadConfiguration: @escaping @Sendable () throws -> DaemonConfiguration, logger: Logger
    ) {
        self.configuration = configuration
        self.environment = environment
        self.reloadConfiguration = reloadConfiguration
        self.logger = logger
    }

    /// Runs until SIGTERM or SIGINT, then drains and shuts down; SIGHUP reloads the configuration.
    public func run() async throws {
        // Until the reloader takes SIGHUP over, it must not end the daemon.
        signal(SIGHUP, SIG_IGN)
        // Nothing the daemon creates grants other users anything, whatever umask it was started with: the library,
        // the cache and the runtime files are private, and other callers get their bytes through the socket.
        umask(0o077)
        GLibMessages.route { [logger] level, domain, message in
            logger.log(level: Self.logLevel(of: level), "\(domain): \(message)")
        }
        try Self.createPrivateDirectory(configuration.libraryPath)
        let activated = try SocketActivation.takeListeningSocket(environment: environment)
        let socketPath = activated?.path ?? configuration.socketPath
        let lock = try LibraryLock(libraryPath: configuration.libraryPath, socketPath: socketPath)
        defer { withExtendedLifetime(lock) {} }
        if activated == nil, await VarlinkServer.isServing(socketPath: socketPath) {
            throw VarlinkServerError.socketInUse(path: socketPath)
        }

        try VipsRuntime.start()
        try Self.createPrivateDirectory(configuration.cachePath)
        let core = try await LibraryCore.open(configuration: configuration, environment: environment, logger: logger)
        let database = core.database
        logger.info(
            "library open",
            metadata: [
                "path": "\(configuration.libraryPath)", "library": "\(database.libraryId)",
                "generation": "\(database.feed.generation)",
            ])

        let memory = MemoryReturn(threadPool: .singleton)
        let server = VarlinkServer(
            socketPath: socketPath,
            listeningDescriptor: activated?.descriptor,
            info: VarlinkServiceInfo(
                vendor: "photolibd", product: "photolibd", version: Self.version,
                url: "https://github.com/photolibd/photolibd"),
            interfaces: [
                LibraryInterface(
                    database: database, changeRequests: core.changeRequests, describer: core.describer,
                    authorization: core.authorization, servedFiles: core.servedFiles),
                ImagesInterface(
                    images: core.images, authorization: core.authorization, servedFiles: core.servedFiles,
                    videoExports: core.videoExports),
                ImportInterface(
                    imports: core.imports, statistics: core.ingest.statistics, authorization: core.authorization,
                    sources: core.sources,
                    uploads: UploadReceiver(uploads: core.uploads, threadPool: .singleton),
                    libraryPath: configuration.libraryPath, cachePath: configuration.cachePath),
            ],
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger,
            onConnectionClosed: { memory.clientLeft() }
        )
        var services = core.services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) }
        services.append(
            .init(
                service: ConfigurationReloader(
                    core: core, read: reloadConfiguration, environment: environment, logger: logger)))
        if let reporter = StatusReporter(
            database: database, statistics: core.ingest.statistics, sources: core.sources, environment: environment)
        {
            services.append(.init(service: reporter))
        }
        if let watchdog = SystemdWatchdog(
            eventLoops: MultiThreadedEventLoopGroup.singleton, database: database,
            environment: environment, logger: logger)
        {
            services.append(.init(service: watchdog))
        }
        // Last, so that graceful shutdown drains the socket first and stops the imports after it.
        services.append(.init(service: VarlinkService(server: server, environment: environment, logger: logger)))
        let group = ServiceGroup(
            configuration: .init(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
        await core.close()
        SystemdNotifier.notify("STOPPING=1", environment: environment)
        logger.info("stopped")
    }

    /// Creates `path` (and its parents) if missing and makes it the daemon user's alone: a library or cache that an
    /// earlier version left open to others (0755, files 0644) is closed at its root.
    private static func createPrivateDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var status = stat()
        if stat(path, &status) == 0, status.st_uid == getuid(), status.st_mode & 0o077 != 0 {
            chmod(path, status.st_mode & 0o700)
        }
    }

    private static func logLevel(of level: GLibMessages.Level) -> Logger.Level {
        switch level {
        case .error: .error
        case .critical: .critical
        case .warning: .warning
        case .message: .notice
        // GLib shows neither by default; libvips' info lines say what it loads and how.
        case .info: .debug
        case .debug: .trace
        }
    }
}

/// The varlink server as a service: tells systemd it is ready once the socket listens, and drains the server at
/// graceful shutdown.
struct VarlinkService: NamedService {
    let server: VarlinkServer
    let environment: [String: String]
    let logger: Logger

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await server.run { [logger, environment, socketPath = server.socketPath] in
                logger.info("listening", metadata: ["socket": "\(socketPath)"])
                SystemdNotifier.notify("READY=1", environment: environment)
            }
        } onGracefulShutdown: {
            SystemdNotifier.notify(
                "STOPPING=1\nSTATUS=stopping: ending observers and finishing calls", environment: environment)
            server.drain()
        }
    }
}
