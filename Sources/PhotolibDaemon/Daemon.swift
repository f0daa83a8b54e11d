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
        for directory in configuration.sources.map(\.path) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let fileStore = LibraryFileStore(libraryPath: configuration.libraryPath)
        try fileStore.createDirectories()
        let places = PlaceNames(environment: environment, logger: logger)
        let database = try LibraryDatabase(path: configuration.libraryPath + "/library.sqlite", places: places)
        let rawReader = RawImageReader(maximumPixels: configuration.maximumImagePixels)
        // Imports read their sources on threads of their own, as many as the shared pool's: a source disk that stops
        // answering holds these, not the threads that serve files, edits and sidecars.
        let importReads = NIOThreadPool(numberOfThreads: System.coreCount)
        importReads.start()
        defer { importReads.shutdownGracefully { _ in } }
        let importer = Importer(
            fileStore: fileStore, threadPool: importReads,
            metadataReader: ImageMetadataReader(maximumPixels: configuration.maximumImagePixels),
            rawReader: rawReader, mediaProber: MediaProber())
        let recovered = try await fileStore.recover(isResourceFile: database.isResourceFile)
        if recovered > 0 { logger.notice("finished interrupted imports", metadata: ["files": "\(recovered)"]) }
        try await StoreSync.recoverUnsyncedCopies(database: database, importer: importer, logger: logger)
        try await StoreFileRemoval(database: database).removeLeftovers(logger: logger)
        // After an upgrade or a changed threshold, every group of duplicates is made afresh (2 s at a million).
        try await database.useDuplicateThreshold(configuration.duplicateThreshold)
        do {
            try await database.rehearseIngest()
        } catch {
            logger.warning("the rehearsed import failed", metadata: ["error": "\(error)"])
        }
        logger.info(
            "library open",
            metadata: [
                "path": "\(configuration.libraryPath)", "library": "\(database.libraryId)",
                "generation": "\(database.feed.generation)",
            ])

        let running = RunningConfiguration(configuration)
        let editor = AssetEditor(
            database: database, fileStore: fileStore, threadPool: .singleton,
            renderer: ImageRenderer(maximumPixels: configuration.maximumImagePixels),
            rawReader: rawReader, metadataReader: importer.metadataReader)
        let images = try ImageManager(
            configuration: configuration, database: database, rawReader: rawReader,
            originalsDirectory: fileStore.originals, logger: logger)
        let importedContents = ImportedPhotoContents()
        let renditionUpkeep = RenditionUpkeep(
            database: database, images: images, importedContents: importedContents,
            logger: logger)
        let sidecars = SidecarKeeper(
            database: database, threadPool: .singleton,
            writeBack: { running.current.metadataWriteBack }, logger: logger)
        let ingest = IngestPipeline(
            importer: importer, database: database, statistics: ImportStatistics(),
            importedContents: importedContents, sidecars: sidecars)
        let sources = ImportSources(
            configured: configuration.sources, configurationFile: configuration.file, ingest: ingest,
            libraryPath: configuration.libraryPath,
            excluded: [configuration.libraryPath, configuration.cachePath],
            logger: logger)
        let authorization = Authorization(policy: configuration.access)
        let memory = MemoryReturn(threadPool: .singleton)
        let servedFiles = ServedFiles()
        let uploads = try Uploads(directory: configuration.libraryPath + "/uploads")
        let server = VarlinkServer(
            socketPath: socketPath,
            listeningDescriptor: activated?.descriptor,
            info: VarlinkServiceInfo(
                vendor: "photolibd", product: "photolibd", version: Self.version,
                url: "https://github.com/photolibd/photolibd"),
            interfaces: [
                LibraryInterface(
                    database: database,
                    changeRequests: ChangeRequests(
                        database: database, ingest: ingest, editor: editor, uploads: uploads),
                    importer: importer, authorization: authorization, servedFiles: servedFiles),
                ImagesInterface(
                    images: images, authorization: authorization, servedFiles: servedFiles,
                    videoExports: try VideoExports(directory: configuration.cachePath + "/exports", images: images)),
                ImportInterface(
                    imports: ClientImports(ingest: ingest), statistics: ingest.statistics, authorization: authorization,
                    sources: sources,
                    uploads: UploadReceiver(uploads: uploads, threadPool: .singleton),
                    libraryPath: configuration.libraryPath, cachePath: configuration.cachePath),
            ],
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger,
            onConnectionClosed: { memory.clientLeft() }
        )
        let reloader = ConfigurationReloader(
            running: running, read: reloadConfiguration, environment: environment, logger: logger,
            apply: { configuration in
                await sources.reconfigure(configuration.sources, from: configuration.file)
                authorization.replacePolicy(with: configuration.access)
                do {
                    try await database.useDuplicateThreshold(configuration.duplicateThreshold)
                } catch {
                    logger.error("cannot regroup the duplicates", metadata: ["error": "\(error)"])
                }
                if images.apply(
                    cacheByteLimit: configuration.cacheByteLimit,
                    freedesktopDirectory: configuration.freedesktopThumbnailDirectory)
                {
                    await renditionUpkeep.listReferencedAssets()
                }
            })
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: sidecars),
            .init(service: sources),
            .init(
                service: LibraryUpkeep.historyPruning(
                    database: database, retentionDays: { running.current.historyRetentionDays },
                    logger: logger)),
            .init(
                service: LibraryUpkeep.trashPurging(
                    database: database, retentionDays: { running.current.trashRetentionDays },
                    logger: logger)),
            .init(service: LibraryUpkeep.recentlyAddedAging(database: database, logger: logger)),
            .init(service: LibraryUpkeep.clockWatch(database: database, logger: logger)),
            .init(service: LibraryUpkeep.cameraDataBackfill(database: database, importer: importer, logger: logger)),
            .init(
                service: BackgroundAnalysis(
                    steps: [
                        PlacesAnalysis(database: database, places: places, logger: logger),
                        FingerprintAnalysis(database: database, images: images, logger: logger),
                    ],
                    statistics: ingest.statistics, wakeUp: images.fingerprints.wakeUp, logger: logger)),
            .init(service: ImageCacheService(images: images, upkeep: renditionUpkeep, fileWork: .singleton)),
            .init(service: reloader),
        ]
        if let reporter = StatusReporter(
            database: database, statistics: ingest.statistics, sources: sources, environment: environment)
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
        await ingest.waitUntilSettled()
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
