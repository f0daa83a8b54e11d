import TestSupport
import Testing

@testable import DaemonCore

struct FileAnnotationsTests {
    @Test func aCopiedPhotosEmbeddedMetadataIsReadFromTheLibrarysCopyNotItsSource() throws {
        let directory = try TemporaryDirectory()
        let copy = try MarkedPhotos.write(
            at: directory.file("copy.jpg"), width: 64, height: 48, orientation: 1,
            exif: ["-XMP-dc:Title=From the copy", "-XMP-xmp:Rating=4"])
        // exiv2 reads with a lock of the whole process held: a source disk that stopped answering would hold up every
        // import. Here the source is gone altogether, and what the photo says is still read.
        let annotations = FileAnnotations(path: directory.file("gone.jpg"), kind: .image, contents: nil, copy: copy)
        #expect(annotations.annotations.title == "From the copy" && annotations.annotations.rating == 4)
        #expect(annotations.problems.isEmpty)
    }
}
