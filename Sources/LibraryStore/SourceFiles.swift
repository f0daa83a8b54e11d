import Foundation
import GRDB
import PhotoModel

/// The part a file plays among files of one base name in one folder.
public enum FileRole: String, Sendable, Hashable {
    /// A still image (JPEG, HEIC…): the asset's photo.
    case still
    /// A camera RAW: the alternatePhoto of the still beside it.
    case raw
    /// A QuickTime movie: the pairedVideo of the still beside it (a Live Photo).
    case movie
    /// Anything else: never paired.
    case other
}

/// A file the importer read, where it was found and what it pairs with.
public struct SourceFile: Sendable, Hashable {
    /// SHA-256 of the content, lowercase hex.
    public var contentHash: String
    /// The import source it was found in; nil for files imported by path.
    public var sourceRoot: String?
    /// Where the file was found.
    public var sourcePath: String
    /// Its folder and lowercased base name: files that share it pair up (RAW+JPEG, Live Photo).
    public var groupKey: String?
    public var role: FileRole
    public var identity: FileIdentity

    public init(
        contentHash: String, sourceRoot: String?, sourcePath: String, groupKey: String?, role: FileRole,
        identity: FileIdentity
    ) {
        self.contentHash = contentHash
        self.sourceRoot = sourceRoot
        self.sourcePath = sourcePath
        self.groupKey = groupKey
        self.role = role
        self.identity = identity
    }
}

/// A referenced file that moved, and the asset that follows it.
public struct ReferencedFileMove: Sendable, Hashable {
    public var assetId: String
    public var from: String
    public var to: String
}

/// What the library knows of a file it took from a source.
public struct KnownFile: Sendable, Hashable {
    public var assetId: String
    public var resourceType: ResourceType
    public var sourcePath: String
    public var identity: FileIdentity
    /// The library holds its own copy (copy and move modes); otherwise the file is referenced in place.
    public var isOwnedByLibrary: Bool
    public var isTrashed: Bool
    public var isOffline: Bool
}

/// A prepared file to commit: the asset it makes on its own, and the file itself.
public struct IngestRequest: Sendable {
    public var draft: AssetDraft
    public var file: SourceFile
    /// Indexed in place: the file may take over the asset of a vanished file with its content, or update its own.
    public var isReference: Bool
    /// An album to add the asset to.
    public var album: String?
    /// The library's copy of the file is not synced yet: the commit is not synced either, and the copy is
    /// remembered (see `UnsyncedCopyRecords`) until `forgetSynced` confirms it.
    public var defersSync: Bool
    /// The XMP sidecar read with a file referenced in place, and its identity then: on record for a new asset.
    public var sidecarPath: String?
    public var sidecarIdentity: FileIdentity?
    /// The id the asset gets if the file makes a new one (else a new one is made).
    public var newAssetId: String?

    public init(
        draft: AssetDraft, file: SourceFile, isReference: Bool, album: String? = nil, defersSync: Bool = false,
        newAssetId: String? = nil
    ) {
        self.draft = draft
        self.file = file
        self.isReference = isReference
        self.album = album
        self.defersSync = defersSync
        self.newAssetId = newAssetId
    }
}

/// What committing a file did.
public enum IngestOutcome: Sendable, Hashable {
    /// A new asset.
    case inserted(assetId: String)
    /// A new resource of an existing asset: a RAW, the movie of a Live Photo, or the still of either.
    case joined(assetId: String)
    /// A referenced file changed in place; its asset now shows the new content.
    case replaced(assetId: String)
    /// A referenced file with the content of a vanished file took over its asset (restored from the trash if needed).
    case relinked(assetId: String)
    /// The library already had this very file.
    case unchanged(assetId: String)
    /// Another asset already has this content; `libraryCopy` is the library's own file of it, if it has one.
    case duplicate(assetId: String, libraryCopy: String?)

    /// Whether the library now uses the file's copy (or, for a referenced file, the file).
    public var usesFile: Bool {
        switch self {
        case .inserted, .joined, .replaced: true
        case .relinked, .unchanged, .duplicate: false
        }
    }

    /// Whether the file's own sidecar is its asset's: the file made the asset, or is its primary file anew.
    public var recordsSidecar: Bool {
        switch self {
        case .inserted, .replaced: true
        case .joined, .relinked, .unchanged, .duplicate: false
        }
    }

    public var assetId: String {
        switch self {
        case .inserted(let id), .joined(let id), .replaced(let id), .relinked(let id), .unchanged(let id),
            .duplicate(let id, _):
            id
        }
    }
}

/// An import source added at run time.
public struct StoredSource: Sendable, Hashable {
    public var path: String
    public var mode: String
    public var recursive: Bool

    public init(path: String, mode: String, recursive: Bool) {
        self.path = path
        self.mode = mode
        self.recursive = recursive
    }
}

/// What the library knows of the files it took from import sources, as they move, go offline and come back, and the
/// sources added at run time.
public struct SourceFileRecords: Sendable {
    let writer: LibraryWriter

    /// Every file the library took from the source at `root`.
    public func knownFiles(inSource root: String) async throws -> [KnownFile] {
        try await writer.read { db in
            try KnownFileRecord.fetchAll(
                db, sql: KnownFileRecord.select + " WHERE rf.sourceRoot = ?", arguments: [root]
            )
            .map(\.file)
        }
    }

    /// Points the referenced files at `path` (a file, or a folder and everything in it) to `newPath`, keeping their
    /// assets; returns each file's move.
    @discardableResult
    public func moveReferencedFiles(from path: String, to newPath: String, sourceRoot: String) async throws
        -> [ReferencedFileMove]
    {
        try await writer.recordChange { transaction in
            var moves: [ReferencedFileMove] = []
            for file in try KnownFileRecord.referenced(under: path, db: transaction.db) {
                let destination = newPath + file.sourcePath.dropFirst(path.count)
                moves.append(ReferencedFileMove(assetId: file.assetId, from: file.sourcePath, to: destination))
                try transaction.db.execute(
                    sql: """
                        UPDATE resource_file SET sourcePath = ?, sourceRoot = ?, isOffline = 0 WHERE assetId = ? AND type = ?
                        """, arguments: [destination, sourceRoot, file.assetId, file.resourceType.rawValue])
                try transaction.db.execute(
                    sql: "UPDATE resource SET path = ? WHERE assetId = ? AND type = ?",
                    arguments: [destination, file.assetId, file.resourceType.rawValue])
                transaction.note(.asset, file.assetId, .changed)
                transaction.referencedFilesLeft.append(
                    ReferencedFileLeft(path: file.sourcePath, movedAssetId: file.assetId))
            }
            return moves
        }.value
    }

    /// The referenced files at `paths` (files, or folders and everything in them) are gone: their assets move to
    /// Recently Deleted, or lose the RAW or movie that went. One transaction for all; returns the files' paths.
    @discardableResult
    public func removeReferencedFiles(at paths: [String]) async throws -> [String] {
        try await writer.recordChange { transaction in
            var removed: [String] = []
            for path in paths {
                for file in try KnownFileRecord.referenced(under: path, db: transaction.db) where !file.isTrashed {
                    try transaction.detach(file)
                    transaction.referencedFilesLeft.append(ReferencedFileLeft(path: file.sourcePath, movedAssetId: nil))
                    removed.append(file.sourcePath)
                }
            }
            return removed
        }.value
    }

    /// The assets whose photo is a file referenced in place, not a copy in the library's store.
    public func referencedPhotoAssetIds() async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT assetId FROM resource WHERE type = ? AND isOwnedByLibrary = 0",
                arguments: [ResourceType.photo.rawValue])
        }
    }

    /// Marks the files of the source at `root` offline (its folder is gone or unmounted) or back online.
    public func setOffline(_ isOffline: Bool, sourceRoot root: String) async throws {
        try await writer.writeUnrecorded { db in
            try db.execute(
                sql: "UPDATE resource_file SET isOffline = ? WHERE sourceRoot = ?", arguments: [isOffline, root])
        }
    }

    /// For each source root: how many assets came from it and how many of those are offline.
    public func sourceAssetCounts() async throws -> [String: (assets: Int, offline: Int)] {
        try await writer.read { db in
            var counts: [String: (assets: Int, offline: Int)] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT rf.sourceRoot, count(DISTINCT rf.assetId), count(DISTINCT CASE WHEN rf.isOffline THEN rf.assetId END)
                    FROM resource_file rf JOIN asset a ON a.id = rf.assetId
                    WHERE rf.sourceRoot IS NOT NULL AND a.trashedTime IS NULL GROUP BY rf.sourceRoot
                    """)
            for row in rows { counts[row[0]] = (row[1], row[2]) }
            return counts
        }
    }

    /// Whether some resource or edit of the library is the file at `path`.
    public func isResourceFile(_ path: String) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM resource WHERE path = ? UNION ALL SELECT 1 FROM asset_edit WHERE path = ?",
                arguments: [path, path]) ?? false
        }
    }

    /// The import sources added at run time.
    public func storedSources() async throws -> [StoredSource] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT path, mode, recursive FROM import_source ORDER BY addedTime")
                .map { StoredSource(path: $0[0], mode: $0[1], recursive: $0[2]) }
        }
    }

    /// Remembers a source added at run time (replacing one at the same path).
    public func saveSource(_ source: StoredSource) async throws {
        try await writer.writeUnrecorded { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO import_source (path, mode, recursive, addedTime) VALUES (?, ?, ?, ?)",
                arguments: [source.path, source.mode, source.recursive, Date().timeIntervalSince1970])
        }
    }

    /// Forgets a source added at run time; false when there was none at `path`.
    public func deleteSource(path: String) async throws -> Bool {
        try await writer.writeUnrecorded { db in
            try db.execute(sql: "DELETE FROM import_source WHERE path = ?", arguments: [path])
            return db.changesCount > 0
        }
    }

}
