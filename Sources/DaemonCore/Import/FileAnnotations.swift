import FolderWatch
import Imaging
import PhotoModel
import XMPAnnotations

/// What a file being imported says of its stars, keywords, title and caption: its embedded XMP and IPTC-IIM
/// (stills and RAW files), and its XMP sidecar (`NAME.EXT.xmp` or `NAME.xmp`), which wins where it says something.
struct FileAnnotations: Sendable {
    var annotations = Annotations()
    /// The position the sidecar gives (a person geotagged the photo in darktable): it wins over the file's own.
    var location: Location?
    /// The sidecar read, if any, and its identity when it was read.
    var sidecar: String?
    var sidecarIdentity: FileIdentity?
    /// What could not be read (a broken sidecar, a rating that is no number), with the path it is in: each is
    /// ignored and logged, and the file is imported all the same.
    var problems: [(path: String, reason: String)] = []

    /// Reads what the file at `path` and its sidecar say; `contents` are the file's bytes when already in memory,
    /// else they are read from `copy`, the library's copy of the file, when there is one. exiv2 reads a file while
    /// it holds a lock of the whole process: the source's disk, which may stop answering, is left out of it.
    init(path: String, kind: MediaFileKind, contents: EncodedBuffer?, copy: String? = nil) {
        var reading = AnnotationReading()
        if kind == .image || kind == .raw {
            do {
                reading =
                    try contents.map { try EmbeddedAnnotations.read(contents: $0.contents) }
                    ?? EmbeddedAnnotations.read(path: copy ?? path)
            } catch {
                // A file exiv2 cannot parse has no annotations to give; libvips decides whether it is an image.
            }
            problems += reading.problems.map { (path, $0) }
        }
        guard
            let sidecar = SidecarNames.candidates(forMediaAt: path).first(where: {
                FileIdentity(regularFileAt: $0) != nil
            })
        else {
            annotations = reading.annotations
            return
        }
        do {
            let identity = FileIdentity(regularFileAt: sidecar)
            let fromSidecar = try SidecarFile.read(sidecar)
            sidecarIdentity = identity
            problems += fromSidecar.problems.map { (sidecar, $0) }
            reading = fromSidecar.overriding(reading)
            location = fromSidecar.location
            self.sidecar = sidecar
        } catch {
            problems.append((sidecar, "the sidecar is ignored: \(error)"))
        }
        annotations = reading.annotations
    }
}
