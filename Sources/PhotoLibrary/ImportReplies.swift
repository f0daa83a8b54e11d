/// How far an `importFiles` call has got.
public struct ImportProgress: Sendable, Hashable, Codable {
    /// Paths handled so far.
    public var processed: Int
    /// Paths in the call.
    public var total: Int
}

/// The outcome of an `importFiles` call: one entry per path, in the order given.
public struct ImportResult: Sendable, Hashable, Codable {
    public var files: [ImportedFile]

    /// Whether any file failed to import.
    public var hasFailures: Bool { files.contains { $0.status == .failed } }
}

/// The importer's counters, as `Import.Status` reports them.
public struct ImportStatus: Sendable, Hashable, Codable {
    public var queued: Int
    public var processing: Int
    public var imported: Int
    public var failed: Int
    /// Configured import sources.
    public var sources: Int
    /// The most recent failure, if any.
    public var lastError: String?
    /// The latest failed files, newest last.
    public var recentFailures: [FailedImport]?
    /// Sources polled because the kernel's inotify watch limit was reached.
    public var pollingSources: [String]?
    /// Sources whose folder is missing or unmounted.
    public var offlineSources: [String]?
}

/// A file the daemon could not import, and why.
public struct FailedImport: Sendable, Hashable, Codable {
    public var path: String
    public var reason: String
}

/// One import folder the daemon watches.
public struct ImportSource: Sendable, Hashable, Codable {
    public var path: String
    public var mode: ImportMode
    public var recursive: Bool
    /// Whether the daemon is watching the folder right now.
    public var watching: Bool
    public var assetCount: Int
    /// Why the folder is not watched, if it is not.
    public var error: String?
    /// "starting", "reconciling", "watching", "polling" or "offline".
    public var state: String?
    /// Assets whose files are unreachable while the folder is missing.
    public var offlineAssetCount: Int?
    /// Whether the config file defines the source (else it was added at run time and can be removed).
    public var isConfigured: Bool?
}

/// The reply of `ListSources`.
struct ListSourcesReply: Decodable, Sendable {
    var sources: [ImportSource]
}
