import Foundation
import Imaging
import LibraryStore
import Logging
import MediaProbe
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
        for directory in [configuration.libraryPath, configuration.cachePath] + configuration.sources.map(\.path) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let fileStore = LibraryFileStore(libraryPath: configuration.libraryPath)
        try fileStore.createDirectories()
        let database = try LibraryDatabase(path: configuration.libraryPath + "/library.sqlite")
        let recovered = try await fileStore.recover(isResourceFile: database.isResourceFile)
        if recovered > 0 { logger.notice("finished interrupted imports", metadata: ["files": "\(recovered)"]) }
        logger.info("library open", metadata: [
            "path": "\(configuration.libraryPath)", "library": "\(database.libraryId)",
            "generation": "\(database.feed.generation)",
        ])

        let importer = Importer(fileStore: fileStore, threadPool: .singleton,
                                metadataReader: ImageMetadataReader(maximumPixels: configuration.maximumImagePixels),
                                mediaProber: MediaProber())
        let editor = AssetEditor(database: database, fileStore: fileStore, threadPool: .singleton,
                                 renderer: ImageRenderer(maximumPixels: configuration.maximumImagePixels),
                                 metadataReader: importer.metadataReader)
        let statistics = ImportStatistics()
        let sources = ImportSources(configured: configuration.sources, importer: importer, database: database,
                                    statistics: statistics, excluded: [configuration.libraryPath, configuration.cachePath],
                                    logger: logger)
        let authorization = Authorization(policy: configuration.access)
        let images = try ImageManager(configuration: configuration, database: database,
                                      originalsDirectory: fileStore.originals, logger: logger)
        let server = VarlinkServer(
            socketPath: configuration.socketPath,
            info: VarlinkServiceInfo(vendor: "photolibd", product: "photolibd", version: Self.version,
                                     url: "https://github.com/photolibd/photolibd"),
            interfaces: [
                LibraryInterface(database: database, importer: importer, editor: editor, authorization: authorization),
                ImagesInterface(images: images, authorization: authorization),
                ImportInterface(database: database, importer: importer, authorization: authorization, sources: sources,
                                statistics: statistics),
            ],
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(
            services: [
                .init(service: sources),
                .init(service: LibraryUpkeep.historyPruning(database: database, retentionDays: configuration.historyRetentionDays,
                                                            logger: logger)),
                .init(service: LibraryUpkeep.trashPurging(database: database, importer: importer,
                                                          retentionDays: configuration.trashRetentionDays, logger: logger)),
                .init(service: LibraryUpkeep.recentlyAddedAging(database: database, logger: logger)),
                .init(service: LibraryUpkeep.cameraDataBackfill(database: database, importer: importer, logger: logger)),
                .init(service: ImageCacheService(
                    images: images, upkeep: RenditionUpkeep(database: database, images: images, logger: logger), fileWork: .singleton)),
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
