import Glibc
import Imaging
import LibraryStore
import PhotoModel

/// Why an image request failed, before it becomes an `io.photolibd.Images` error.
enum ImageError: Error, Sendable, Hashable {
    case notFound(assetId: String)
    case unavailable(assetId: String, reason: String)
    case permissionDenied
    case invalidParameter(String)
}

/// The file an asset's images are made from, and what `RequestImageData` tells of it.
struct AssetImageSource: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case photo
        case video(duration: Double)
    }

    var assetId: String
    var kind: Kind
    var path: String
    /// The size as displayed, from the library; nil when unknown.
    var displayedSize: PixelSize?
    var mimeType: String
    var originalFilename: String
    var fileSize: Int64
    var orientation: Int

    /// The source of `asset`, fetched with its resources: the photo of a photo or Live Photo, the movie of a video.
    init(_ asset: Asset) throws(ImageError) {
        let resources = asset.resources ?? []
        let kind: Kind
        let resource: AssetResource?
        switch asset.mediaType {
        case .image:
            kind = .photo
            resource = resources.first { $0.type == .photo } ?? resources.first { $0.type == .alternatePhoto }
        case .video:
            kind = .video(duration: asset.duration)
            resource = resources.first { $0.type == .video }
        case .audio, .unknown:
            throw .unavailable(assetId: asset.id, reason: "a \(asset.mediaType.rawValue) asset has no image")
        }
        guard let resource, let path = resource.path else {
            throw .unavailable(assetId: asset.id, reason: "the asset has no file to make an image from")
        }
        self.assetId = asset.id
        self.kind = kind
        self.path = path
        self.displayedSize = asset.pixelWidth > 0 && asset.pixelHeight > 0
            ? PixelSize(width: asset.pixelWidth, height: asset.pixelHeight) : nil
        self.mimeType = resource.mimeType
        self.originalFilename = resource.originalFilename
        self.fileSize = resource.fileSize
        self.orientation = asset.orientation
    }

    /// The file's identity now: size, modification time and inode, which change when the file is rewritten but
    /// not when it is renamed; nil when the file is missing.
    func currentVersion() -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return "\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)-\(info.st_ino)"
    }

    /// The current version, or `unavailable` naming the missing file.
    func requireVersion() throws(ImageError) -> String {
        guard let version = currentVersion() else {
            throw .unavailable(assetId: assetId, reason: "its file \(path) is missing")
        }
        return version
    }
}
