import Foundation
import Imaging
import LibraryStore
import Logging
import MediaProbe
import NIOCore
import NIOPosix
import PhotolibConfig
import ServiceLifecycle
import Synchronization

/// The daemon's work on one library, put together: the store opened and recovered from a crash, the import pipeline
/// and its sources, images, edits, sidecars, transfers, the background analysis and the upkeep. Each varlink method
/// calls one operation of what is here, and nothing here knows the transport: a test opens a core on a folder and
/// calls it in-process.
package final class LibraryCore: Sendable {
    package let database: LibraryDatabase
    package let describer: FileDescriber
    package let ingest: IngestPipeline
    package let changeRequests: ChangeRequests
    package let imports: ClientImports
    package let images: ImageManager
    package let videoExports: VideoExports
    package let sources: ImportSources
    package let authorization: Authorization
    package let servedFiles: ServedFiles
    package let uploads: Uploads
    private let running: RunningConfiguration
    private let places: PlaceNames
    private let imageSources: AssetImageSources
    private let renditions: RenditionMaker
    private let freedesktop: FreedesktopThumbnailService
    private let freshFingerprints = FreshFingerprints()
    private let renditionUpkeep: RenditionUpkeep
    private let importReads: NIOThreadPool
    private let logger: Logger

    /// Opens the library `configuration` names, creating it when new, and finishes what a crash or power cut
    /// interrupted: imports half done, copies not yet synced, files left to remove. libvips must have started.
    package static func open(configuration: DaemonConfiguration, environment: [String: String], logger: Logger)
        async throws -> LibraryCore
    {
        for directory in configuration.sources.map(\.path) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let fileStore = LibraryFileStore(libraryPath: configuration.libraryPath)
        try fileStore.createDirectories()
        let places = PlaceNames(environment: environment, logger: logger)
        let database = try LibraryDatabase(path: configuration.libraryPath + "/library.sqlite", places: places)
        // Imports read their sources on threads of their own, as many as the shared pool's: a source disk that stops
        // answering holds these, not the threads that serve files, edits and sidecars.
        let importReads = NIOThreadPool(numberOfThreads: System.coreCount)
        importReads.start()
        let rawReader = RawImageReader(maximumPixels: configuration.maximumImagePixels)
        let describer = FileDescriber(
            metadataReader: ImageMetadataReader(maximumPixels: configuration.maximumImagePixels),
            rawReader: rawReader, mediaProber: MediaProber(), threadPool: importReads)
        let importer = Importer(fileStore: fileStore, describer: describer)
        do {
            let recovered = try await fileStore.recover(isResourceFile: database.sourceFiles.isResourceFile)
            if recovered > 0 { logger.notice("finished interrupted imports", metadata: ["files": "\(recovered)"]) }
            try await StoreSync.recoverUnsyncedCopies(database: database, importer: importer, logger: logger)
            try await StoreFileRemoval(database: database).removeLeftovers(logger: logger)
            // After an upgrade or a changed threshold, every group of duplicates is made afresh (2 s at a million).
            try await database.duplicates.useDuplicateThreshold(configuration.duplicateThreshold)
            do {
                try await database.rehearseIngest()
            } catch {
                logger.warning("the rehearsed import failed", metadata: ["error": "\(error)"])
            }
            return try LibraryCore(
                configuration: configuration, database: database, places: places, importer: importer,
                rawReader: rawReader, importReads: importReads, logger: logger)
        } catch {
            // A core that cannot open leaves no threads behind.
            try? await importReads.shutdownGracefully()
            throw error
        }
    }

    private init(
        configuration: DaemonConfiguration, database: LibraryDatabase, places: PlaceNames, importer: Importer,
        rawReader: RawImageReader, importReads: NIOThreadPool, logger: Logger
    ) throws {
        let running = RunningConfiguration(configuration)
        self.running = running
        self.database = database
        self.places = places
        self.importReads = importReads
        self.logger = logger
        describer = importer.describer
        imageSources = AssetImageSources(database: database)
        renditions = try RenditionMaker(configuration: configuration, rawReader: rawReader, logger: logger)
        images = ImageManager(database: database, sources: imageSources, maker: renditions)
        freedesktop = FreedesktopThumbnailService(
            directory: configuration.freedesktopThumbnailDirectory, originalsDirectory: importer.fileStore.originals,
            maker: renditions, fileWork: .singleton)
        let importedContents = ImportedPhotoContents()
        renditionUpkeep = RenditionUpkeep(
            database: database, sources: imageSources, maker: renditions, freedesktop: freedesktop,
            fingerprints: freshFingerprints, importedContents: importedContents, logger: logger)
        let sidecars = SidecarKeeper(
            database: database, threadPool: .singleton,
            writeBack: { running.current.metadataWriteBack }, logger: logger)
        ingest = IngestPipeline(
            importer: importer, database: database, statistics: ImportStatistics(),
            importedContents: importedContents, sidecars: sidecars)
        sources = ImportSources(
            configured: configuration.sources, configurationFile: configuration.file, ingest: ingest,
            libraryPath: configuration.libraryPath, excluded: [configuration.libraryPath, configuration.cachePath],
            logger: logger)
        let editor = AssetEditor(
            database: database, fileStore: importer.fileStore, threadPool: .singleton,
            renderer: ImageRenderer(maximumPixels: configuration.maximumImagePixels),
            rawReader: rawReader, metadataReader: describer.metadataReader)
        uploads = try Uploads(directory: configuration.libraryPath + "/uploads")
        changeRequests = ChangeRequests(database: database, ingest: ingest, editor: editor, uploads: uploads)
        imports = ClientImports(ingest: ingest)
        authorization = Authorization(policy: configuration.access)
        servedFiles = ServedFiles()
        videoExports = try VideoExports(directory: configuration.cachePath + "/exports", sources: imageSources)
    }

    /// The configuration the core runs with now: the one it opened with until `reconfigure` replaces it.
    package var configuration: DaemonConfiguration { running.current }

    /// Applies what can change while the daemon runs (sources, the access policy, the duplicate threshold, the
    /// cache budget, freedesktop.org thumbnails, retention and write-back), then runs with `new`.
    package func reconfigure(_ new: DaemonConfiguration) async {
        await sources.reconfigure(new.sources, from: new.file)
        authorization.replacePolicy(with: new.access)
        do {
            try await database.duplicates.useDuplicateThreshold(new.duplicateThreshold)
        } catch {
            logger.error("cannot regroup the duplicates", metadata: ["error": "\(error)"])
        }
        renditions.setCacheByteLimit(new.cacheByteLimit)
        if freedesktop.reconfigure(directory: new.freedesktopThumbnailDirectory) {
            await renditionUpkeep.listReferencedAssets()
        }
        running.replace(with: new)
    }

    /// The core's background work, each a service to run until graceful shutdown: sidecars, the import sources, the
    /// upkeep of the history, the trash, the recently added album, the clock and camera data, the background
    /// analysis and the rendition cache.
    package var services: [any Service] {
        let running = self.running
        return [
            ingest.sidecars,
            sources,
            LibraryUpkeep.historyPruning(
                database: database, retentionDays: { running.current.historyRetentionDays }, logger: logger),
            LibraryUpkeep.trashPurging(
                database: database, retentionDays: { running.current.trashRetentionDays }, logger: logger),
            LibraryUpkeep.recentlyAddedAging(database: database, logger: logger),
            LibraryUpkeep.clockWatch(database: database, logger: logger),
            LibraryUpkeep.cameraDataBackfill(database: database, describer: describer, logger: logger),
            BackgroundAnalysis(
                steps: [
                    PlacesAnalysis(database: database, places: places, logger: logger),
                    FingerprintAnalysis(
                        database: database, sources: imageSources, maker: renditions, fresh: freshFingerprints,
                        logger: logger),
                ],
                statistics: ingest.statistics, wakeUp: freshFingerprints.wakeUp, logger: logger),
            ImageCacheService(maker: renditions, upkeep: renditionUpkeep, freedesktop: freedesktop),
        ]
    }

    /// Waits until every committed file is settled (its copy synced, a moved source removed), then stops the
    /// threads that read imports.
    package func close() async {
        await ingest.waitUntilSettled()
        try? await importReads.shutdownGracefully()
    }
}

/// The configuration a core runs with now, read by the services that follow it as a reload changes it.
private final class RunningConfiguration: Sendable {
    private let configuration: Mutex<DaemonConfiguration>

    init(_ configuration: DaemonConfiguration) {
        self.configuration = Mutex(configuration)
    }

    var current: DaemonConfiguration { configuration.withLock { $0 } }

    func replace(with configuration: DaemonConfiguration) {
        self.configuration.withLock { $0 = configuration }
    }
}
