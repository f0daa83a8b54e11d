import Foundation
import LibraryStore
import PhotoModel

/// What a file is to the importer, decided by its name alone.
enum MediaFileKind: Sendable, Hashable {
    case image
    case raw
    case video
    case audio

    static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "heic", "heif", "webp", "tif", "tiff", "gif",
    ]
    /// Camera RAW formats, all read with LibRaw.
    static let rawMimeTypes: [String: String] = [
        "dng": "image/x-adobe-dng", "cr2": "image/x-canon-cr2", "cr3": "image/x-canon-cr3", "crw": "image/x-canon-crw",
        "nef": "image/x-nikon-nef", "nrw": "image/x-nikon-nrw", "arw": "image/x-sony-arw", "sr2": "image/x-sony-sr2",
        "srf": "image/x-sony-srf", "raf": "image/x-fuji-raf", "orf": "image/x-olympus-orf",
        "rw2": "image/x-panasonic-rw2",
        "pef": "image/x-pentax-pef", "srw": "image/x-samsung-srw", "rwl": "image/x-leica-rwl",
        "3fr": "image/x-hasselblad-3fr",
        "iiq": "image/x-phaseone-iiq", "erf": "image/x-epson-erf", "kdc": "image/x-kodak-kdc",
        "dcr": "image/x-kodak-dcr",
        "mrw": "image/x-minolta-mrw", "x3f": "image/x-sigma-x3f", "mos": "image/x-leaf-mos",
    ]
    static let rawMimeTypeSet = Set(rawMimeTypes.values)
    static let videoMimeTypes: [String: String] = [
        "mp4": "video/mp4", "mov": "video/quicktime", "m4v": "video/x-m4v", "mkv": "video/x-matroska",
        "webm": "video/webm", "avi": "video/x-msvideo",
    ]
    static let audioMimeTypes: [String: String] = [
        "m4a": "audio/mp4", "mp3": "audio/mpeg", "wav": "audio/wav", "flac": "audio/flac",
    ]
    /// Extensions of files still being written by browsers, download and sync tools.
    static let temporaryExtensions: Set<String> = ["part", "crdownload", "partial", "download", "tmp", "temp", "swp"]

    /// The kind of a file by its extension; nil for files the library leaves alone.
    init?(fileName: String) {
        let fileExtension = Self.fileExtension(of: fileName)
        if Self.imageExtensions.contains(fileExtension) {
            self = .image
        } else if Self.rawMimeTypes[fileExtension] != nil {
            self = .raw
        } else if Self.videoMimeTypes[fileExtension] != nil {
            self = .video
        } else if Self.audioMimeTypes[fileExtension] != nil {
            self = .audio
        } else {
            return nil
        }
    }

    /// Whether a name belongs to a file that is not finished or not meant to be seen: dotfiles, `name~`, `.part` and the like.
    static func isTemporaryOrHidden(_ fileName: String) -> Bool {
        fileName.hasPrefix(".") || fileName.hasSuffix("~") || temporaryExtensions.contains(fileExtension(of: fileName))
    }

    /// The lowercased extension of a file name ("JPG" in "IMG_1.JPG" gives "jpg"); empty when it has none.
    static func fileExtension(of fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return "" }
        return fileName[fileName.index(after: dot)...].lowercased()
    }

    /// The last component of a path.
    static func fileName(ofPath path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// The part this file plays beside files of the same base name.
    func role(fileName: String) -> FileRole {
        switch self {
        case .image: .still
        case .raw: .raw
        case .video: Self.fileExtension(of: fileName) == "mov" ? .movie : .other
        case .audio: .other
        }
    }

    /// The folder and lowercased base name that the files of one group share.
    static func groupKey(ofPath path: String) -> String {
        (path as NSString).deletingPathExtension.lowercased()
    }
}
