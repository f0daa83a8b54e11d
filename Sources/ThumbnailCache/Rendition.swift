/// Names one rendition: an asset, and which image of it (a size of the ladder, an exact size, the full image...).
public struct RenditionKey: Hashable, Sendable, CustomStringConvertible {
    public var assetId: String
    /// The image of the asset, in the cache user's own words: "short-256", "fit-640x480".
    public var variant: String

    public init(assetId: String, variant: String) {
        self.assetId = assetId
        self.variant = variant
    }

    public var description: String { "\(assetId)/\(variant)" }
}

/// An encoded image to keep in the cache.
public struct RenditionImage: Sendable, Hashable {
    public var data: [UInt8]
    public var width: Int
    public var height: Int
    public var mimeType: String
    /// The file name extension, without the dot: "jpg", "png".
    public var fileExtension: String

    public init(data: [UInt8], width: Int, height: Int, mimeType: String, fileExtension: String) {
        self.data = data
        self.width = width
        self.height = height
        self.mimeType = mimeType
        self.fileExtension = fileExtension
    }
}

/// A rendition on disk, checked and ready to be read at `path`.
public struct CachedRendition: Sendable, Hashable {
    public var key: RenditionKey
    public var path: String
    public var width: Int
    public var height: Int
    public var mimeType: String
    public var byteCount: Int
    /// The identity of the source file it was made from (size, modification time, inode...).
    public var sourceVersion: String

    public init(key: RenditionKey, path: String, width: Int, height: Int, mimeType: String, byteCount: Int,
                sourceVersion: String) {
        self.key = key
        self.path = path
        self.width = width
        self.height = height
        self.mimeType = mimeType
        self.byteCount = byteCount
        self.sourceVersion = sourceVersion
    }
}

/// Why the cache could not open or keep a rendition.
public enum RenditionCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cache directory or its index cannot be used.
    case cannotOpen(directory: String, reason: String)
    /// The file system holding the cache is full, even after the least recently used renditions were removed.
    case diskFull(directory: String)
    /// Writing a rendition failed.
    case writeFailed(path: String, reason: String)
    /// The asset left the library while its rendition was being made.
    case assetRemoved(assetId: String)

    public var description: String {
        switch self {
        case .cannotOpen(let directory, let reason):
            "cannot use the thumbnail cache in \(directory): \(reason)"
        case .diskFull(let directory):
            "the disk holding the thumbnail cache \(directory) is full; free some space or move the cache"
        case .writeFailed(let path, let reason):
            "cannot write the cached image \(path): \(reason)"
        case .assetRemoved(let assetId):
            "asset \(assetId) was removed from the library"
        }
    }
}
