import Foundation
import Imaging
import LibraryStore
import Logging
import NIOCore
import NIOPosix
import PhotolibConfig
import ServiceLifecycle
import Varlink

/// The photolibd daemon: opens the library and serves it on the varlink socket until asked to stop.
public struct Daemon: Sendable {
    public static let version = "0.1.0"

    let configuration: DaemonConfiguration
    let environment: [String: String]
    let logger: Logger

    public init(configuration: DaemonConfiguration, environment: [String: String], logger: Logger) {
        self.configuration = configuration
        self.environment = environment
        self.logger = logger
    }

    /// Runs until SIGTERM or SIGINT, then shuts down gracefully.
    public func run() async throws {
        try VipsRuntime.start()
        let originals = configuration.libraryPath + "/originals"
        for directory in [configuration.libraryPath, originals, configuration.cachePath]
            + configuration.sources.map(\.path) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let database = try LibraryDatabase(path: configuration.libraryPath + "/library.sqlite")
        logger.info("library open", metadata: [
            "path": "\(configuration.libraryPath)", "library": "\(database.libraryId)",
            "generation": "\(database.feed.generation)",
        ])

        let importer = Importer(originalsDirectory: originals, threadPool: .singleton, metadataReader: ImageMetadataReader())
        let authorization = Authorization(policy: configuration.access)
        let server = VarlinkServer(
            socketPath: configuration.socketPath,
            info: VarlinkServiceInfo(vendor: "photolibd", product: "photolibd", version: Self.version,
                                     url: "https://github.com/photolibd/photolibd"),
            interfaces: [
                LibraryInterface(database: database, importer: importer, authorization: authorization),
                ImagesInterface(),
                ImportInterface(database: database, importer: importer, authorization: authorization,
                                sources: configuration.sources, statistics: ImportStatistics(sources: configuration.sources.count)),
            ],
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(
            services: [
                .init(service: HistoryPruning(database: database, retentionDays: configuration.historyRetentionDays, logger: logger)),
                .init(service: VarlinkService(server: server, environment: environment, logger: logger)),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await group.run()
        SystemdNotifier.notify("STOPPING=1", environment: environment)
        logger.info("stopped")
    }
}

/// The varlink server as a service: tells systemd it is ready once the socket listens.
struct VarlinkService: Service {
    let server: VarlinkServer
    let environment: [String: String]
    let logger: Logger

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await server.run { [logger, environment, socketPath = server.socketPath] in
                logger.info("listening", metadata: ["socket": "\(socketPath)"])
                SystemdNotifier.notify("READY=1\nSTATUS=Serving on \(socketPath)", environment: environment)
            }
        }
    }
}
