import Foundation
import GRDB
import Logging
import Synchronization

/// The on-disk cache of renditions: image files under `<directory>/renditions`, indexed in
/// `<directory>/index.sqlite`, kept within a byte budget by removing the least recently used.
///
/// It survives restarts. A rendition is served only while the source file has the version it was made from,
/// and only if its file is intact: the size is checked every time, the checksum the first time after a start.
/// A damaged or missing file is forgotten, so that the caller makes it again. Anything in the directory can be
/// deleted; an index that cannot be read is thrown away with the files it named.
///
/// Thread-safe. Lookups touch memory and `stat` one file; stores, removals and `saveUsage` write the index and
/// the file system: call those off the event loops.
public final class RenditionCache: Sendable {
    /// The cache directory.
    public let directory: String
    /// The budget: when the files add up to more, the least recently used go until they fill 90% of it.
    public var byteLimit: Int { limit.load(ordering: .relaxed) }
    private let limit: Atomic<Int>

    private struct Entry {
        var index: IndexEntry
        /// Whether the file's checksum was checked since this process opened the cache.
        var isVerified: Bool
    }

    private struct State {
        var entries: [RenditionKey: Entry] = [:]
        var variantsByAsset: [String: Set<String>] = [:]
        var byteCount = 0
        /// Renditions used since the last `saveUsage`.
        var usedSinceSave: Set<RenditionKey> = []
        /// Assets removed from the library: a rendition of theirs finished later is not kept.
        var removedAssets: Set<String> = []

        mutating func insert(_ entry: Entry, for key: RenditionKey) -> Entry? {
            let previous = entries.updateValue(entry, forKey: key)
            byteCount += entry.index.byteCount - (previous?.index.byteCount ?? 0)
            variantsByAsset[key.assetId, default: []].insert(key.variant)
            return previous
        }

        mutating func remove(_ key: RenditionKey) -> Entry? {
            guard let entry = entries.removeValue(forKey: key) else { return nil }
            byteCount -= entry.index.byteCount
            variantsByAsset[key.assetId]?.remove(key.variant)
            if variantsByAsset[key.assetId]?.isEmpty == true {
                variantsByAsset[key.assetId] = nil
            }
            usedSinceSave.remove(key)
            return entry
        }
    }

    private let files: RenditionFiles
    private let index: RenditionIndex
    private let state: Mutex<State>
    private let logger: Logger

    /// Opens the cache in `directory`, creating it as needed.
    public init(directory: String, byteLimit: Int, logger: Logger) throws(RenditionCacheError) {
        self.directory = directory
        limit = Atomic(byteLimit)
        self.logger = logger
        files = RenditionFiles(cacheDirectory: directory)
        let indexPath = directory + "/index.sqlite"
        let loaded: (RenditionIndex, [RenditionKey: IndexEntry])
        do {
            loaded = try Self.openIndex(at: indexPath, files: files)
        } catch {
            logger.warning("thumbnail cache index unreadable; starting an empty cache", metadata: [
                "path": "\(indexPath)", "error": "\(error)",
            ])
            for path in [indexPath, indexPath + "-wal", indexPath + "-shm", files.root] {
                try? FileManager.default.removeItem(atPath: path)
            }
            do {
                loaded = try Self.openIndex(at: indexPath, files: files)
            } catch {
                throw .cannotOpen(directory: directory, reason: "\(error)")
            }
        }
        index = loaded.0
        var state = State()
        for (key, entry) in loaded.1 {
            _ = state.insert(Entry(index: entry, isVerified: false), for: key)
        }
        self.state = Mutex(state)
    }

    private static func openIndex(at path: String,
                                  files: RenditionFiles) throws -> (RenditionIndex, [RenditionKey: IndexEntry]) {
        try FileManager.default.createDirectory(atPath: files.incoming, withIntermediateDirectories: true)
        let index = try RenditionIndex(path: path)
        return (index, try index.loadAll())
    }

    /// The bytes the cached files add up to.
    public var byteCount: Int { state.withLock { $0.byteCount } }

    /// The number of renditions cached.
    public var count: Int { state.withLock { $0.entries.count } }

    /// The rendition of `key` if it is cached intact and made from `sourceVersion` (any version when nil).
    ///
    /// A damaged or missing file is forgotten and nil returned. Counts as a use for the eviction order.
    public func rendition(for key: RenditionKey, sourceVersion: String?) -> CachedRendition? {
        guard let entry = state.withLock({ $0.entries[key] }),
              sourceVersion == nil || entry.index.sourceVersion == sourceVersion else { return nil }
        guard files.isIntact(entry.index.file, byteCount: entry.index.byteCount,
                             checksum: entry.isVerified ? nil : entry.index.checksum) else {
            logger.notice("damaged thumbnail cache file; it will be made again", metadata: [
                "rendition": "\(key)", "path": "\(files.path(of: entry.index.file))",
            ])
            forget([key], unless: { $0.index.checksum != entry.index.checksum })
            return nil
        }
        let now = Date().timeIntervalSince1970
        state.withLock { state in
            guard state.entries[key]?.index.checksum == entry.index.checksum else { return }
            state.entries[key]?.isVerified = true
            state.entries[key]?.index.lastUsed = now
            state.usedSinceSave.insert(key)
        }
        return cachedRendition(key, entry.index)
    }

    /// The renditions of an asset made from `sourceVersion`, as recorded, without checking their files.
    public func renditions(ofAsset assetId: String, sourceVersion: String) -> [CachedRendition] {
        state.withLock { state in
            (state.variantsByAsset[assetId] ?? []).compactMap { variant in
                let key = RenditionKey(assetId: assetId, variant: variant)
                guard let entry = state.entries[key], entry.index.sourceVersion == sourceVersion else { return nil }
                return cachedRendition(key, entry.index)
            }
        }
    }

    /// Keeps `image` as the rendition of `key` made from `sourceVersion`, replacing the one there, then
    /// removes the least recently used renditions if the budget is exceeded.
    ///
    /// When the disk is full, removes least recently used renditions to make room and tries once more.
    /// - Throws: `diskFull`, `writeFailed`, or `assetRemoved` when the asset left the library meanwhile.
    public func store(_ image: RenditionImage, for key: RenditionKey,
                      sourceVersion: String) throws(RenditionCacheError) -> CachedRendition {
        guard !state.withLock({ $0.removedAssets.contains(key.assetId) }) else { throw .assetRemoved(assetId: key.assetId) }
        let relativePath = files.relativePath(of: key, fileExtension: image.fileExtension)
        do {
            try files.write(image.data, to: relativePath)
        } catch .diskFull {
            // Twice the file, and room for the index to record the change.
            makeRoom(forBytes: image.data.count * 2 + 65_536, keeping: key)
            try files.write(image.data, to: relativePath)
        }
        let entry = IndexEntry(
            file: relativePath, width: image.width, height: image.height, mimeType: image.mimeType,
            byteCount: image.data.count, checksum: RenditionFiles.checksum(of: image.data),
            sourceVersion: sourceVersion, lastUsed: Date().timeIntervalSince1970)
        do {
            try index.save(entry, for: key)
        } catch {
            files.remove(relativePath)
            if let error = error as? DatabaseError, error.resultCode == .SQLITE_FULL {
                throw .diskFull(directory: directory)
            }
            throw .writeFailed(path: directory + "/index.sqlite", reason: "\(error)")
        }
        let (previous, removed) = state.withLock { state in
            state.removedAssets.contains(key.assetId)
                ? (nil, true) : (state.insert(Entry(index: entry, isVerified: true), for: key), false)
        }
        if removed {
            removeRenditions(ofAsset: key.assetId)
            throw .assetRemoved(assetId: key.assetId)
        }
        if let previous, previous.index.file != relativePath {
            files.remove(previous.index.file)
        }
        evictIfOverBudget(keeping: key)
        return cachedRendition(key, entry)
    }

    /// Removes every rendition of an asset (its content changed).
    public func removeRenditions(ofAsset assetId: String) {
        let keys = state.withLock { state in
            (state.variantsByAsset[assetId] ?? []).map { RenditionKey(assetId: assetId, variant: $0) }
        }
        forget(keys)
    }

    /// Removes every rendition of an asset that left the library, and refuses any finished later.
    public func forgetAsset(_ assetId: String) {
        state.withLock { _ = $0.removedAssets.insert(assetId) }
        removeRenditions(ofAsset: assetId)
    }

    /// Records in the index when each rendition used since the last call was last used.
    public func saveUsage() {
        let usage = state.withLock { state in
            defer { state.usedSinceSave.removeAll() }
            return Dictionary(uniqueKeysWithValues: state.usedSinceSave.compactMap { key in
                state.entries[key].map { (key, $0.index.lastUsed) }
            })
        }
        do {
            try index.saveUsage(usage)
        } catch {
            logger.warning("cannot record thumbnail cache usage", metadata: ["error": "\(error)"])
        }
    }

    /// Deletes the files no rendition names and the temporary files of unfinished writes, older than `date`:
    /// what a crash between writing a file and indexing it leaves behind.
    public func removeOrphanedFiles(olderThan date: Date) {
        let cutoff = date.timeIntervalSince1970
        let named = state.withLock { Set($0.entries.values.map(\.index.file)) }
        for file in files.allFiles() where file.modified < cutoff && !named.contains(file.relativePath) {
            files.remove(file.relativePath)
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: files.incoming)) ?? [] {
            let path = files.incoming + "/" + name
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? nil
            if let modified, modified < date {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    // MARK: Eviction

    /// Sets a new budget; when the files add up to more, the least recently used go at once.
    public func setByteLimit(_ byteLimit: Int) {
        limit.store(byteLimit, ordering: .relaxed)
        evictIfOverBudget(keeping: nil)
    }

    /// Removes least recently used renditions until the files fill at most 90% of the budget.
    private func evictIfOverBudget(keeping kept: RenditionKey?) {
        let byteLimit = byteLimit
        let victims: [RenditionKey] = state.withLock { state in
            guard state.byteCount > byteLimit else { return [] }
            return Self.leastRecentlyUsed(in: state, toFree: state.byteCount - byteLimit / 10 * 9, keeping: kept)
        }
        forget(victims)
    }

    /// Removes least recently used renditions holding at least `bytes`, to make room on a full disk.
    private func makeRoom(forBytes bytes: Int, keeping kept: RenditionKey) {
        let victims = state.withLock { Self.leastRecentlyUsed(in: $0, toFree: bytes, keeping: kept) }
        logger.notice("the thumbnail cache's disk is full; removing least recently used renditions", metadata: [
            "count": "\(victims.count)",
        ])
        forget(victims)
    }

    private static func leastRecentlyUsed(in state: State, toFree bytes: Int,
                                          keeping kept: RenditionKey?) -> [RenditionKey] {
        var freed = 0
        var victims: [RenditionKey] = []
        for (key, entry) in state.entries.sorted(by: { $0.value.index.lastUsed < $1.value.index.lastUsed })
        where freed < bytes && key != kept {
            victims.append(key)
            freed += entry.index.byteCount
        }
        return victims
    }

    /// Drops `keys` from memory, the index and the disk; with `unless`, keeps an entry it says has changed since.
    private func forget(_ keys: [RenditionKey], unless hasChanged: (Entry) -> Bool = { _ in false }) {
        let removed: [(RenditionKey, Entry)] = state.withLock { state in
            keys.compactMap { key in
                guard let entry = state.entries[key], !hasChanged(entry) else { return nil }
                return state.remove(key).map { (key, $0) }
            }
        }
        guard !removed.isEmpty else { return }
        for (_, entry) in removed {
            files.remove(entry.index.file)
        }
        do {
            try index.remove(removed.map(\.0))
        } catch {
            logger.warning("cannot update the thumbnail cache index", metadata: ["error": "\(error)"])
        }
    }

    private func cachedRendition(_ key: RenditionKey, _ entry: IndexEntry) -> CachedRendition {
        CachedRendition(key: key, path: files.path(of: entry.file), width: entry.width, height: entry.height,
                        mimeType: entry.mimeType, byteCount: entry.byteCount, sourceVersion: entry.sourceVersion)
    }
}
