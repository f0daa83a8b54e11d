/// Where a photo's XMP sidecar lives: `NAME.EXT.xmp` (darktable, digiKam) or `NAME.xmp` (Lightroom, Capture One),
/// beside the photo.
public enum SidecarNames {
    /// Whether a file name is a sidecar's (its extension is `xmp`, in any case).
    public static func isSidecar(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return false }
        return fileName[fileName.index(after: dot)...].lowercased() == "xmp"
    }

    /// The sidecars a photo at `path` may have, the ones that win first: `NAME.EXT.xmp`, then `NAME.xmp`, each
    /// with a lowercase then an uppercase extension.
    public static func candidates(forMediaAt path: String) -> [String] {
        let stem = path.lastIndex(of: ".").flatMap { dot in
            path[dot...].contains("/") ? nil : String(path[..<dot])
        }
        return [path + ".xmp", path + ".XMP"] + (stem.map { [$0 + ".xmp", $0 + ".XMP"] } ?? [])
    }

    /// The sidecar to create for a photo at `path` that has none: `NAME.EXT.xmp`, which names its photo exactly.
    public static func newSidecar(forMediaAt path: String) -> String {
        path + ".xmp"
    }

    /// The photo a sidecar at `path` is for: the file it names (`NAME.EXT` for `NAME.EXT.xmp`), or, for a
    /// `NAME.xmp`, the path without its extension, which any photo named `NAME.*` in the folder matches.
    public static func media(ofSidecar path: String) -> (exactPath: String?, stem: String) {
        let stem = String(path.dropLast(4))
        let name = stem.split(separator: "/").last.map(String.init) ?? stem
        return (name.contains(".") ? stem : nil, stem)
    }
}
