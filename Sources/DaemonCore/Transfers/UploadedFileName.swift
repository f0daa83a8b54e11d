import Glibc

/// The name a created asset's file is imported under when what the client said does not tell its format (an
/// upload's bytes have no name of their own): its name if that has a known extension, else a name whose extension
/// its type identifier gives, else the one its first bytes give.
enum UploadedFileName {
    /// PhotoKit's type identifiers of the formats the library takes, and their extensions.
    static let extensions: [String: String] = [
        "public.jpeg": "jpg", "public.png": "png", "public.heic": "heic", "public.heif": "heif",
        "org.webmproject.webp": "webp", "public.tiff": "tiff", "com.compuserve.gif": "gif",
        "com.apple.quicktime-movie": "mov", "public.mpeg-4": "mp4", "com.apple.m4v-video": "m4v",
        "public.mpeg-4-audio": "m4a", "public.mp3": "mp3", "com.microsoft.waveform-audio": "wav",
        "org.xiph.flac": "flac",
        "com.adobe.raw-image": "dng",
    ]

    /// The name to import the file at `path` under.
    static func name(ofFileAt path: String, given name: String?, typeIdentifier: String?) -> String {
        let stem = name.map { $0.isEmpty ? "upload" : $0 } ?? "upload"
        if MediaFileKind(fileName: stem) != nil { return stem }
        if let typeIdentifier, let fileExtension = extensions[typeIdentifier] { return stem + "." + fileExtension }
        if let fileExtension = sniffedExtension(ofFileAt: path) { return stem + "." + fileExtension }
        return stem
    }

    /// The extension of the format the file's first bytes show; nil for one the library does not know by its bytes.
    static func sniffedExtension(ofFileAt path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 16) }
        guard count >= 12 else { return nil }
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            Array(header[offset..<offset + prefix.count]) == prefix
        }
        let ascii = { (text: String) in Array(text.utf8) }
        if starts([0xFF, 0xD8, 0xFF]) { return "jpg" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if starts(ascii("GIF8")) { return "gif" }
        if starts(ascii("RIFF")), starts(ascii("WEBP"), at: 8) { return "webp" }
        if starts(ascii("RIFF")), starts(ascii("WAVE"), at: 8) { return "wav" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "tiff" }
        if starts(ascii("fLaC")) { return "flac" }
        if starts(ascii("ID3")) { return "mp3" }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "mkv" }
        guard starts(ascii("ftyp"), at: 4) else { return nil }
        switch String(decoding: header[8..<12], as: UTF8.self) {
        case "heic", "heix", "heim", "heis": return "heic"
        case "mif1", "msf1": return "heif"
        case "qt  ": return "mov"
        case "M4A ": return "m4a"
        case "M4V ": return "m4v"
        default: return "mp4"
        }
    }
}
