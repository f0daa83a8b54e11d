import PhotolibLocations

/// Everything the daemon needs to know to start: where the library, cache and socket live,
/// which folders to import from, how long to keep trash and history, when two photos are duplicates,
/// and who may connect.
public struct DaemonConfiguration: Sendable, Hashable {
    /// The number of days trashed assets and change history are kept unless configured otherwise.
    public static let defaultRetentionDays = 30

    /// The directory that holds `library.sqlite` and the `originals/` store.
    public var libraryPath: String
    /// The thumbnail cache directory.
    public var cachePath: String
    /// The socket the daemon listens on, resolved by `SocketLocation.resolve`.
    public var socketPath: String
    /// The import folders.
    public var sources: [SourceConfiguration]
    /// Days an asset stays in Recently Deleted before it is purged.
    public var trashRetentionDays: Int
    /// Days of persistent change history kept for `FetchPersistentChanges`.
    public var historyRetentionDays: Int
    /// Who may read and change the library.
    public var access: AccessPolicy
    /// Whether this is the system-wide daemon (`photolibd --system`) rather than a user's own.
    public var isSystemDaemon: Bool
    /// The most bytes of renditions the thumbnail cache keeps; the least recently used go first.
    public var cacheByteLimit: Int
    /// Images whose header declares more pixels than this are refused before decoding (decompression bombs).
    public var maximumImagePixels: Int
    /// Where to also write freedesktop.org thumbnails of files in reference sources; nil when not written.
    public var freedesktopThumbnailDirectory: String?
    /// Whether a change of an asset's stars, keywords, title or caption is written to its XMP sidecar.
    public var metadataWriteBack = MetadataWriteBack.sidecar
    /// Two photos are duplicates when their 64-bit perceptual fingerprints differ in at most this many bits
    /// (`[duplicates] similarity_threshold`, within `duplicateThresholds`).
    public var duplicateThreshold: Int
    /// The file this configuration was read from; nil for the embedded default.
    public var file: String?

    /// The thumbnail cache's budget unless configured otherwise: 4 GiB.
    public static let defaultCacheByteLimit = 4 << 30
    /// The pixel limit unless configured otherwise: 200 million pixels.
    public static let defaultMaximumImagePixels = 200_000_000
    /// The duplicate threshold unless configured otherwise, in bits of Hamming distance between two 64-bit
    /// perceptual fingerprints. It is chosen from measurements (see Benchmarks/REPORT.md), not by taste: a distance
    /// at which a JPEG re-saved at quality 70 or scaled to half still matches its original and two frames one second
    /// apart of a moving scene do not. Change it only with a new measurement, and with it the default that
    /// etc/photolibd.conf and docs/photolibd.conf.5 state (`DuplicateSettingsTests` compares them).
    public static let defaultDuplicateThreshold = 2
    /// The values `[duplicates] similarity_threshold` may take: 0 (identical fingerprints only) to 12 bits.
    public static let duplicateThresholds = 0...12

    /// Creates a configuration from its parts.
    public init(
        libraryPath: String,
        cachePath: String,
        socketPath: String,
        sources: [SourceConfiguration],
        trashRetentionDays: Int = DaemonConfiguration.defaultRetentionDays,
        historyRetentionDays: Int = DaemonConfiguration.defaultRetentionDays,
        access: AccessPolicy = AccessPolicy(),
        isSystemDaemon: Bool,
        cacheByteLimit: Int = DaemonConfiguration.defaultCacheByteLimit,
        maximumImagePixels: Int = DaemonConfiguration.defaultMaximumImagePixels,
        freedesktopThumbnailDirectory: String? = nil,
        duplicateThreshold: Int = DaemonConfiguration.defaultDuplicateThreshold
    ) {
        self.libraryPath = libraryPath
        self.cachePath = cachePath
        self.socketPath = socketPath
        self.sources = sources
        self.trashRetentionDays = trashRetentionDays
        self.historyRetentionDays = historyRetentionDays
        self.access = access
        self.isSystemDaemon = isSystemDaemon
        self.cacheByteLimit = cacheByteLimit
        self.maximumImagePixels = maximumImagePixels
        self.freedesktopThumbnailDirectory = freedesktopThumbnailDirectory
        self.duplicateThreshold = duplicateThreshold
    }

    /// Loads a TOML configuration file; keys it leaves out take their embedded default values.
    ///
    /// Relative paths in the file are resolved against the file's directory and `~` is expanded.
    /// Unknown keys, wrong types, bad values and unknown user names throw, naming the key and line.
    /// Leaving out `[[source]]` keeps the default drop folder; `source = []` means no sources.
    public static func load(
        fromFile path: String, environment: [String: String], system: Bool
    ) throws(ConfigurationError) -> DaemonConfiguration {
        let file = try ConfigurationFile(path: path, home: UserEnvironment(environment).home)
        let settings = try file.settings()
        var configuration = embeddedDefault(environment: environment, system: system)
        configuration.file = file.path
        configuration.libraryPath = settings.library ?? configuration.libraryPath
        configuration.cachePath = settings.cache ?? configuration.cachePath
        configuration.socketPath = SocketLocation.resolve(
            environment: environment, configuredPath: settings.socket, system: system)
        configuration.sources = settings.sources ?? configuration.sources
        configuration.trashRetentionDays = settings.trashRetentionDays ?? configuration.trashRetentionDays
        configuration.historyRetentionDays = settings.historyRetentionDays ?? configuration.historyRetentionDays
        configuration.access = settings.access ?? configuration.access
        configuration.metadataWriteBack = settings.metadataWriteBack ?? configuration.metadataWriteBack
        configuration.cacheByteLimit = settings.images.cacheByteLimit ?? configuration.cacheByteLimit
        configuration.maximumImagePixels = settings.images.maximumPixels ?? configuration.maximumImagePixels
        configuration.duplicateThreshold = settings.duplicateThreshold ?? configuration.duplicateThreshold
        switch settings.images.freedesktopThumbnails {
        case nil: break
        case .standardDirectory:
            configuration.freedesktopThumbnailDirectory = Path.join(
                UserEnvironment(environment).cacheHome, "thumbnails")
        case .directory(let path):
            configuration.freedesktopThumbnailDirectory = path
        }
        return configuration
    }

    /// The configuration used when there is no file: it works out of the box for the user running it.
    ///
    /// A user daemon keeps its library under `$XDG_DATA_HOME/photolibd`, its cache in
    /// `$XDG_CACHE_HOME/photolibd` and imports from the drop folder `$XDG_DATA_HOME/photolibd/drop`;
    /// the system daemon uses `/var/lib/photolibd` and `/var/cache/photolibd`. No directory is created.
    public static func embeddedDefault(environment: [String: String], system: Bool) -> DaemonConfiguration {
        let socket = SocketLocation.resolve(environment: environment, configuredPath: nil, system: system)
        if system {
            return DaemonConfiguration(
                libraryPath: "/var/lib/photolibd/library",
                cachePath: "/var/cache/photolibd",
                socketPath: socket,
                sources: [SourceConfiguration(path: "/var/lib/photolibd/drop", mode: .move, recursive: true)],
                isSystemDaemon: true)
        }
        let user = UserEnvironment(environment)
        let data = Path.join(user.dataHome, "photolibd")
        return DaemonConfiguration(
            libraryPath: Path.join(data, "library"),
            cachePath: Path.join(user.cacheHome, "photolibd"),
            socketPath: socket,
            sources: [SourceConfiguration(path: Path.join(data, "drop"), mode: .move, recursive: true)],
            isSystemDaemon: false)
    }

    /// The configuration the daemon runs with: the explicit `--config` file, which must exist;
    /// else the default file (`ConfigurationLocation.defaultFile`) if it exists; else the embedded default.
    public static func resolve(
        configFile: String?, environment: [String: String], system: Bool
    ) throws(ConfigurationError) -> DaemonConfiguration {
        if let configFile {
            return try load(fromFile: configFile, environment: environment, system: system)
        }
        let defaultFile = ConfigurationLocation.defaultFile(environment: environment, system: system)
        do {
            return try load(fromFile: defaultFile, environment: environment, system: system)
        } catch .fileNotFound {
            return embeddedDefault(environment: environment, system: system)
        }
    }
}

/// Where the library writes a change of an asset's stars, keywords, title or caption besides its database.
public enum MetadataWriteBack: String, Sendable, Hashable, CaseIterable {
    /// Into the asset's XMP sidecar (the one it has, else `NAME.EXT.xmp` beside its file), as darktable,
    /// digiKam and Lightroom read it.
    case sidecar
    /// Nowhere: the library keeps it alone.
    case off
}
