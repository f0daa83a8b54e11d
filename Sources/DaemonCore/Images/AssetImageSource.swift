import Glibc
import Imaging
import LibraryStore
import PhotoModel
import PhotolibProtocol
import ThumbnailCache

/// Why an image request failed, before it becomes an `io.photolibd.Images` error.
package enum ImageError: Error, Sendable, Hashable {
    case notFound(assetId: String)
    case unavailable(assetId: String, reason: String)
    case permissionDenied
    case invalidParameter(String)
}

/// The file an asset's images are made from, and what `RequestImageData` tells of it.
package struct AssetImageSource: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case photo
        case video(duration: Double)
    }

    /// One file an asset's images can come from.
    package struct File: Sendable, Hashable {
        package var path: String
        /// The size as displayed; nil when unknown.
        var displayedSize: PixelSize?
        package var mimeType: String
        package var originalFilename: String
        package var fileSize: Int64
        package var orientation: Int

        /// A camera RAW file, whose images come from LibRaw rather than from libvips directly.
        var isRAW: Bool { MediaFileKind.rawMimeTypeSet.contains(mimeType) }
    }

    var assetId: String
    var kind: Kind
    /// The file images are made from: the original, or the edit once `selecting(.current)` chose it.
    var file: File
    /// The edit's rendered file, until a version is selected.
    var edit: File?
    /// The RAW of a RAW+JPEG pair (its `alternatePhoto`), which the `original` version shows.
    var alternate: File?
    /// What the cache names of this version start with: empty for the current version.
    var renditionPrefix = ""

    var path: String { file.path }
    var displayedSize: PixelSize? { file.displayedSize }

    /// The source of `asset`, fetched with its resources: the photo of a photo or Live Photo, the movie of a video;
    /// `edit` is the asset's edit.
    init(_ asset: Asset, edit: AssetEdit?) throws(ImageError) {
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
        func size(_ width: Int, _ height: Int) -> PixelSize? {
            width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
        }
        self.assetId = asset.id
        self.kind = kind
        self.file = File(
            path: path,
            displayedSize: edit.map { size($0.originalPixelWidth, $0.originalPixelHeight) }
                ?? size(asset.pixelWidth, asset.pixelHeight),
            mimeType: resource.mimeType, originalFilename: resource.originalFilename,
            fileSize: resource.fileSize, orientation: asset.orientation)
        if let raw = resources.first(where: { $0.type == .alternatePhoto }), raw != resource, let rawPath = raw.path {
            // The library keeps the photo's size, not the RAW's: the RAW's renditions find it as they decode.
            alternate = File(
                path: rawPath, displayedSize: nil, mimeType: raw.mimeType, originalFilename: raw.originalFilename,
                fileSize: raw.fileSize, orientation: asset.orientation)
        }
        self.edit = edit.map { edit in
            let rendered = edit.draft
            // PhotoKit names an edit's full-size file so.
            let name = "FullSizeRender." + (rendered.path.split(separator: ".").last.map(String.init) ?? "jpg")
            return File(
                path: rendered.path, displayedSize: size(rendered.pixelWidth, rendered.pixelHeight),
                mimeType: rendered.mimeType, originalFilename: name, fileSize: rendered.fileSize,
                orientation: rendered.orientation)
        }
    }

    /// This source with the file of `version`: the edit for `current` when there is one, else the original, whose
    /// renditions then have names of their own; for `original`, the RAW of a RAW+JPEG pair.
    func selecting(_ version: ImageVersion) -> AssetImageSource {
        if version == .original, let alternate {
            var selected = self
            selected.edit = nil
            selected.file = alternate
            selected.renditionPrefix = "alternate-"
            return selected
        }
        guard let edit else { return self }
        var selected = self
        selected.edit = nil
        if version == .current {
            selected.file = edit
        } else {
            selected.renditionPrefix = "unadjusted-"
        }
        return selected
    }

    /// The cache's name for `variant` of this version.
    func renditionKey(_ variant: String) -> RenditionKey {
        RenditionKey(assetId: assetId, variant: renditionPrefix + variant)
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
