/// How the daemon treats the files it finds in an import folder, or is handed by `ImportFiles`.
public enum SourceMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// A drop folder: files are moved into the library's store.
    case move
    /// Files are copied into the library's store and left where they are.
    case copy
    /// Files are indexed in place; the library refers to them by path.
    case reference
}

/// `Import.ImportFiles`.
public struct ImportFilesParameters: Sendable, Hashable, Codable {
    public var paths: [String]
    public var mode: SourceMode?
    /// An album to add the imported assets to.
    public var album: String?
    /// Import nothing: report what an import would do with each file (`imported` for a file it would add).
    public var dryRun: Bool?

    public init(paths: [String], mode: SourceMode? = nil, album: String? = nil, dryRun: Bool? = nil) {
        self.paths = paths
        self.mode = mode
        self.album = album
        self.dryRun = dryRun
    }
}

/// `Import.AddSource`.
public struct AddSourceParameters: Sendable, Hashable, Codable {
    public var path: String
    public var mode: SourceMode
    public var recursive: Bool?

    public init(path: String, mode: SourceMode, recursive: Bool? = nil) {
        self.path = path
        self.mode = mode
        self.recursive = recursive
    }
}

/// `Import.RemoveSource`.
public struct RemoveSourceParameters: Sendable, Hashable, Codable {
    public var path: String

    public init(path: String) {
        self.path = path
    }
}

/// What became of one path of an `ImportFiles` call.
public struct ImportedFile: Sendable, Hashable, Codable {
    /// The outcome of importing one file.
    public enum Status: String, Sendable, Hashable, Codable {
        case imported, duplicate, unsupported, failed
    }

    public var path: String
    public var status: Status
    /// The asset the file became, or the existing asset it duplicates.
    public var assetId: String?
    /// Why the file was not imported.
    public var error: String?

    public init(path: String, status: Status, assetId: String? = nil, error: String? = nil) {
        self.path = path
        self.status = status
        self.assetId = assetId
        self.error = error
    }
}

/// One reply of the `ImportFiles` stream: progress, and on the last reply the files.
public struct ImportFilesReply: Sendable, Hashable, Codable {
    public var processed: Int
    public var total: Int
    public var files: [ImportedFile]?

    public init(processed: Int, total: Int, files: [ImportedFile]? = nil) {
        self.processed = processed
        self.total = total
        self.files = files
    }
}

/// `Import.Status`: the importer's counters.
public struct ImportStatus: Sendable, Hashable, Codable {
    public var queued = 0
    public var processing = 0
    public var imported = 0
    public var failed = 0
    /// Configured import sources.
    public var sources = 0
    /// The most recent failure, if any.
    public var lastError: String?
    /// The latest failed files, newest last.
    public var recentFailures: [FailedImport] = []
    /// Sources polled because the kernel's inotify watch limit was reached.
    public var pollingSources: [String] = []
    /// Sources whose folder is missing or unmounted.
    public var offlineSources: [String] = []
    /// Files in drop folders that are not imported and stay there, as long as they do; nil when there are none.
    public var leftInDropFolders: [FailedImport]?
    /// photolibd's version.
    public var version: String?
    /// The library's folder.
    public var library: String?
    /// The rendition cache's folder.
    public var cache: String?
    /// The background analysis' progress.
    public var analysis: AnalysisStatus?

    public init() {}
}

/// The background analysis of the library's assets, each kind with its progress.
public struct AnalysisStatus: Sendable, Hashable, Codable {
    /// Places named from locations (CONTRACT §15).
    public var places: AnalysisProgress?
    /// Perceptual fingerprints, which duplicates are found by (CONTRACT §17).
    public var fingerprints: AnalysisProgress?

    public init(places: AnalysisProgress? = nil, fingerprints: AnalysisProgress? = nil) {
        self.places = places
        self.fingerprints = fingerprints
    }
}

/// How far one kind of analysis is: of `total` assets it applies to, `done`; `problem` says why it cannot run.
public struct AnalysisProgress: Sendable, Hashable, Codable {
    public var done: Int
    public var total: Int
    public var problem: String?

    public init(done: Int, total: Int, problem: String? = nil) {
        self.done = done
        self.total = total
        self.problem = problem
    }
}

/// A file the daemon could not import, and why.
public struct FailedImport: Sendable, Hashable, Codable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// One import source, as `Import.ListSources` reports it.
public struct ImportSource: Sendable, Hashable, Codable {
    public var path: String
    public var mode: SourceMode
    public var recursive: Bool
    /// Whether the daemon is watching the folder right now.
    public var watching: Bool
    public var assetCount: Int
    /// Why the folder is not watched, if it is not.
    public var error: String?
    /// "starting", "reconciling", "watching", "polling" or "offline".
    public var state: String
    /// Assets whose files are unreachable while the folder is missing or unmounted.
    public var offlineAssetCount: Int
    /// Whether the config file defines the source (else it was added with `AddSource` and can be removed).
    public var isConfigured: Bool

    public init(
        path: String, mode: SourceMode, recursive: Bool, watching: Bool, assetCount: Int, error: String?,
        state: String, offlineAssetCount: Int, isConfigured: Bool
    ) {
        self.path = path
        self.mode = mode
        self.recursive = recursive
        self.watching = watching
        self.assetCount = assetCount
        self.error = error
        self.state = state
        self.offlineAssetCount = offlineAssetCount
        self.isConfigured = isConfigured
    }
}

/// `Import.ListSources`.
public struct ListSourcesReply: Sendable, Hashable, Codable {
    public var sources: [ImportSource]

    public init(sources: [ImportSource]) {
        self.sources = sources
    }
}

/// `Import.Upload`: `size` bytes to come, and the name of the file they were (which tells their format).
public struct UploadParameters: Sendable, Hashable, Codable {
    public var size: Int
    public var filename: String?

    public init(size: Int, filename: String? = nil) {
        self.size = size
        self.filename = filename
    }
}

/// The reply of `Import.Upload`, and the message that answers its bytes once they are all kept.
public struct UploadReply: Sendable, Hashable, Codable {
    /// What a `createAsset` change names the upload by (`upload`).
    public var uploadId: String
    /// In the answer to the bytes: how many were kept.
    public var size: Int?

    public init(uploadId: String, size: Int? = nil) {
        self.uploadId = uploadId
        self.size = size
    }
}
