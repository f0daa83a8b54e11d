import Digests
import Foundation
import Glibc
import HexEncoding
import Imaging

/// Writes thumbnails by the freedesktop.org Thumbnail Managing Standard, so that file managers show the
/// library's thumbnails of files they also see: `normal/` (128 px) and `large/` (256 px) PNGs named by the MD5
/// of the file's URI, carrying `Thumb::URI` and `Thumb::MTime`.
struct FreedesktopThumbnails: Sendable {
    /// The thumbnail root, normally `$XDG_CACHE_HOME/thumbnails`.
    let directory: String
    let renderer: ImageRenderer

    /// The sizes of the standard: directory name and the side of the box the thumbnail fits in.
    static let sizes = [("large", 256), ("normal", 128)]

    /// Writes both thumbnails of the file at `path`, displayed at `displayedSize`, made from `rendition` (an image
    /// of the file at least 256 pixels a side). Blocking.
    func write(forFileAt path: String, displayedSize: PixelSize, from rendition: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let uri = Self.uri(ofPath: path)
        let text = [
            PNGTextChunk(keyword: "Thumb::URI", text: uri),
            PNGTextChunk(keyword: "Thumb::MTime", text: String(info.st_mtim.tv_sec)),
            PNGTextChunk(keyword: "Thumb::Size", text: String(info.st_size)),
            PNGTextChunk(keyword: "Software", text: "photolibd"),
        ]
        let name = Self.thumbnailName(ofURI: uri)
        for (folder, side) in Self.sizes {
            // Never larger than the file's own picture, as the standard asks.
            let size = RenditionSpec(size: .fit(PixelSize(width: side, height: side)))
                .outputSize(forUpright: displayedSize)
            let image = try renderer.renderPNG(imageAt: rendition, as: RenditionSpec(size: .fit(size)), text: text)
            let folderPath = directory + "/" + folder
            try FileManager.default.createDirectory(
                atPath: folderPath, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            let temporary = "\(folderPath)/.\(UUID().uuidString).png"
            guard
                FileManager.default.createFile(
                    atPath: temporary, contents: Data(image.data),
                    attributes: [.posixPermissions: 0o600])
            else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
            }
            guard rename(temporary, folderPath + "/" + name) == 0 else {
                let code = errno
                unlink(temporary)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
        }
    }

    /// Whether both thumbnails of the file at `path` are there and no older than the file or `rendition`, the
    /// image of its current version they would be made from.
    func isCurrent(forFileAt path: String, madeFrom rendition: String) -> Bool {
        guard let file = Self.modificationTime(of: path), let made = Self.modificationTime(of: rendition) else {
            return false
        }
        let name = Self.thumbnailName(ofURI: Self.uri(ofPath: path))
        return Self.sizes.allSatisfy { folder, _ in
            Self.modificationTime(of: "\(directory)/\(folder)/\(name)").map { $0 >= max(file, made) } ?? false
        }
    }

    private static func modificationTime(of path: String) -> Double? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// Removes the thumbnails of the file that was at `path` (moved or deleted). Blocking.
    func remove(forFileAt path: String) {
        let name = Self.thumbnailName(ofURI: Self.uri(ofPath: path))
        for (folder, _) in Self.sizes { unlink("\(directory)/\(folder)/\(name)") }
    }

    /// The standard's file name of the thumbnails of `uri`: the MD5 of the URI in hex, `.png`.
    private static func thumbnailName(ofURI uri: String) -> String {
        Digest.md5(uri.utf8).lowercaseHex + ".png"
    }

    /// The `file://` URI of an absolute path, escaped as RFC 2396 asks (and GLib's `g_filename_to_uri` does).
    static func uri(ofPath path: String) -> String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!~*'()/:@&=+$,".utf8)
        return "file://"
            + path.utf8.map { byte in
                kept.contains(byte) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
            }.joined()
    }
}
