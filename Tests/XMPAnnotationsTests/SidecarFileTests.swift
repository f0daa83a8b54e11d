import Foundation
import PhotoModel
import Testing
import TestSupport
@testable import XMPAnnotations

struct SidecarFileTests {
    @Test func aDarktableSidecarGivesEveryField() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_1.jpg.xmp")
        try XMPFixtures.write(XMPFixtures.darktable, to: path)
        let reading = try SidecarFile.read(path)
        #expect(reading.rating == 3)
        #expect(reading.keywords == ["cat", "Places|Paris"])
        #expect(reading.title == "Sunset")
        #expect(reading.caption == "At the beach")
        #expect(reading.problems.isEmpty)
    }

    @Test func aLightroomSidecarGivesARejectionAndItsHierarchyOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_2.xmp")
        try XMPFixtures.write(XMPFixtures.lightroom, to: path)
        let annotations = try SidecarFile.read(path).annotations
        #expect(annotations == Annotations(rating: -1, keywords: ["Places|Paris", "beach"], caption: "Sand and sea"))
    }

    @Test func aSidecarWrittenByExiftoolIsRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_3.jpg.xmp")
        try runTool("/usr/bin/exiftool", ["-q", "-o", path, "-XMP-xmp:Rating=4", "-XMP-dc:Subject=dog",
                                          "-XMP-dc:Subject=park", "-XMP-dc:Title=Fetch", "-XMP-dc:Description=Green grass"])
        #expect(try SidecarFile.read(path).annotations
            == Annotations(rating: 4, keywords: ["dog", "park"], title: "Fetch", caption: "Green grass"))
    }

    @Test(arguments: [
        ("not XML", "hello, not a sidecar"),
        ("truncated", String(XMPFixtures.darktable.prefix(700))),
        ("entity bomb", """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"/>
            """),
        ("external entity", """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x:xmpmeta xmlns:x="adobe:ns:meta/"/>
            """),
    ])
    func aBrokenOrHostileSidecarIsRefusedWithAReason(name: String, text: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("bad.xmp")
        try XMPFixtures.write(text, to: path)
        #expect(throws: SidecarError.self, "\(name)") { try SidecarFile.read(path) }
    }

    @Test func aSidecarLargerThanTheCapIsRefusedUnread() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("huge.xmp")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(SidecarFile.maximumSize + 1)) == 0)
        let error = try #require(throws: SidecarError.self) { try SidecarFile.read(path) }
        #expect(error.description.contains("larger than 16 MiB"))
    }

    /// Fuzzing finding 1: a rating far outside an Int's range crashed the conversion.
    @Test(arguments: ["lots", "-6666666666666666666666666666666666666666666666661", "1e300", "nan", "6"])
    func aRatingThatIsNoRatingIsIgnoredAndSaidSo(rating: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("odd.xmp")
        try XMPFixtures.write(XMPFixtures.darktable.replacingOccurrences(of: "xmp:Rating=\"3\"", with: "xmp:Rating=\"\(rating)\""),
                              to: path)
        let reading = try SidecarFile.read(path)
        #expect(reading.rating == nil)
        #expect(reading.keywords == ["cat", "Places|Paris"])
        #expect(reading.problems.count == 1)
    }

    @Test func writingKeepsTheHistoryAndForeignNamespaceAndExiftoolReadsTheChange() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_4.jpg.xmp")
        try XMPFixtures.write(XMPFixtures.darktable, to: path)
        let changed = Annotations(rating: 5, keywords: ["dog", "Places|Rome"], title: "Dusk", caption: nil)
        try SidecarFile.write(changed, to: path, mode: 0o644)
        #expect(try SidecarFile.read(path).annotations == changed)
        let read = try XMPFixtures.exiftool(path, ["-XMP-xmp:Rating", "-XMP-acme:all", "-XMP-darktable:all",
                                                   "-XMP-lr:HierarchicalSubject", "-XMP-dc:Title-fr-FR", "-XMP-dc:Description"])
        #expect(read.contains("Rating: 5"))
        #expect(read.contains("Secret: keep me"))
        #expect(read.contains("HistoryOperation: exposure") && read.contains("History_end: 2"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("darktable:operation=\"colorin\"") && text.contains("darktable:params=\"gz48\""))
        #expect(read.contains("HierarchicalSubject: dog, Places|Rome"))
        #expect(read.contains("Title-fr-FR: Coucher"))
        #expect(!read.contains("Description"))
    }

    @Test func writingWhereThereIsNoSidecarMakesOneWithThePermissionsAsked() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_5.jpg.xmp")
        try SidecarFile.write(Annotations(rating: 2, keywords: ["x"]), to: path, mode: 0o600)
        #expect(try SidecarFile.read(path).annotations == Annotations(rating: 2, keywords: ["x"]))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["IMG_5.jpg.xmp"])
    }

    @Test func aSidecarThatIsNotXMPIsNeverOverwritten() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_6.jpg.xmp")
        try XMPFixtures.write("someone's notes, not XMP", to: path)
        #expect(throws: SidecarError.self) { try SidecarFile.write(Annotations(rating: 1), to: path, mode: 0o644) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone's notes, not XMP")
    }

    @Test func aReadOnlyFolderRefusesTheWriteAsNotWritable() throws {
        guard getuid() != 0 else { return }   // root writes anywhere
        let directory = try TemporaryDirectory()
        chmod(directory.path, 0o500)
        defer { chmod(directory.path, 0o700) }
        let error = try #require(throws: SidecarError.self) {
            try SidecarFile.write(Annotations(rating: 1), to: directory.file("a.jpg.xmp"), mode: 0o644)
        }
        #expect(error.isNotWritable)
    }
}

struct SidecarNamesTests {
    @Test func aPhotoHasItsDarktableThenItsLightroomSidecarNames() {
        #expect(SidecarNames.candidates(forMediaAt: "/p/IMG_1.CR2")
            == ["/p/IMG_1.CR2.xmp", "/p/IMG_1.CR2.XMP", "/p/IMG_1.xmp", "/p/IMG_1.XMP"])
        #expect(SidecarNames.media(ofSidecar: "/p/IMG_1.CR2.xmp").exactPath == "/p/IMG_1.CR2")
        #expect(SidecarNames.media(ofSidecar: "/p/IMG_1.xmp").stem == "/p/IMG_1")
        #expect(SidecarNames.media(ofSidecar: "/p/IMG_1.xmp").exactPath == nil)
        #expect(SidecarNames.isSidecar("a.XMP") && !SidecarNames.isSidecar("xmp") && !SidecarNames.isSidecar("a.jpg"))
    }
}

struct EmbeddedAnnotationsTests {
    @Test func aPhotoWithEmbeddedXMPGivesItsFields() throws {
        let directory = try TemporaryDirectory()
        let path = try MarkedPhotos.write(at: directory.file("xmp.jpg"), width: 64, height: 48, orientation: 1, exif: [
            "-XMP-xmp:Rating=5", "-XMP-lr:HierarchicalSubject=Animals|Cat", "-XMP-dc:Subject=Cat",
            "-XMP-dc:Title=Whiskers", "-XMP-dc:Description=On the sofa",
        ])
        #expect(try EmbeddedAnnotations.read(path: path).annotations
            == Annotations(rating: 5, keywords: ["Animals|Cat"], title: "Whiskers", caption: "On the sofa"))
    }

    @Test func aPhotoWithIPTCOnlyGivesItsKeywordsObjectNameAndCaption() throws {
        let directory = try TemporaryDirectory()
        let path = try MarkedPhotos.write(at: directory.file("iptc.jpg"), width: 64, height: 48, orientation: 1, exif: [
            "-IPTC:Keywords=harbour", "-IPTC:Keywords=boats", "-IPTC:ObjectName=Morning", "-IPTC:Caption-Abstract=Fog",
        ])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let reading = try bytes.withUnsafeBytes { try EmbeddedAnnotations.read(contents: $0) }
        #expect(reading.annotations == Annotations(rating: 0, keywords: ["harbour", "boats"], title: "Morning", caption: "Fog"))
    }

    @Test func embeddedXMPWinsOverIPTC() throws {
        let directory = try TemporaryDirectory()
        let path = try MarkedPhotos.write(at: directory.file("both.jpg"), width: 64, height: 48, orientation: 1, exif: [
            "-IPTC:ObjectName=Old", "-XMP-dc:Title=New",
        ])
        #expect(try EmbeddedAnnotations.read(path: path).title == "New")
    }
}
