import Foundation
import PhotoModel
import TestSupport
import Testing

@testable import XMPAnnotations

/// Input nested 100,000 deep never reaches a parser of exiv2's that would recurse through it: exiv2 refuses deep
/// XMP itself (its XML validator, Exiv2 PR 1878); the formats it reads by recursion without a limit (CRW, RIFF,
/// QuickTime) are recognised by their header and never handed to it, and ISO media (HEIC, AVIF, CR3) only when its
/// boxes nest as files do. Either way the process lives and says why.
struct DeepNestingTests {
    static let depth = 100_000

    static func nested(_ open: String, _ close: String) -> String {
        NestedFixtures.nested(open, "x", close, depth: depth)
    }

    static let sidecars = [
        "lists": "<dc:subject>" + nested("<rdf:Bag><rdf:li>", "</rdf:li></rdf:Bag>") + "</dc:subject>",
        "descriptions": nested("<acme:a><rdf:Description>", "</rdf:Description></acme:a>"),
        "structures": nested(#"<acme:a rdf:parseType="Resource">"#, "</acme:a>"),
        "elements": nested("<acme:a>", "</acme:a>"),
    ]

    @Test(arguments: sidecars.keys.sorted())
    func aSidecarNestedDeepIsRefusedByExiv2(kind: String) throws {
        let bytes = Array(NestedFixtures.sidecar(Self.sidecars[kind]!).utf8)
        let error = try #require(throws: SidecarError.self) { try SidecarFile.annotations(inSidecarBytes: bytes) }
        #expect(error.description.contains("XMP"), "\(kind): \(error)")
    }

    static let canonUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]

    /// Files whose format exiv2 reads by recursion, nested 100,000 deep, and what the refusal names.
    static let unreadFiles: [String: (bytes: [UInt8], refusal: String)] = [
        "Canon CRW": (NestedFixtures.canonRaw(depth: depth), "Canon CRW"),
        "RIFF AVI": (NestedFixtures.riff(depth: depth), "RIFF"),
        "HEIC meta": (NestedFixtures.isoMedia(container: "meta", lead: [0, 0, 0, 0], depth: depth), "ISO media"),
        "HEIC iprp": (NestedFixtures.isoMedia(container: "iprp", depth: depth), "ISO media"),
        "HEIC iinf": (NestedFixtures.isoMedia(container: "iinf", lead: [0, 0, 0, 0, 0, 1], depth: depth), "ISO media"),
        "AVIF moov": (NestedFixtures.isoMedia(brand: "avif", container: "moov", depth: depth), "ISO media"),
        "CR3 uuid": (
            NestedFixtures.isoMedia(brand: "crx ", container: "uuid", lead: canonUUID, depth: depth), "ISO media"
        ),
        "QuickTime": (
            [0, 0, 0, 8] + Array("wide".utf8) + NestedFixtures.isoMedia(container: "trak", depth: depth).dropFirst(20),
            "QuickTime"
        ),
    ]

    @Test(arguments: unreadFiles.keys.sorted())
    func aFileExiv2ReadsByRecursionIsNeverHandedToIt(kind: String) throws {
        let (bytes, refusal) = Self.unreadFiles[kind]!
        let fromBytes = try #require(throws: MetadataError.self) {
            try bytes.withUnsafeBytes { bytes throws(MetadataError) in try EmbeddedAnnotations.read(contents: bytes) }
        }
        #expect(fromBytes.description.contains(refusal), "\(kind): \(fromBytes)")
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_0001.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fromFile = try #require(throws: MetadataError.self) { try EmbeddedAnnotations.read(path: path) }
        #expect(fromFile == fromBytes)
        let asSidecar = try #require(throws: SidecarError.self) { try SidecarFile.annotations(inSidecarBytes: bytes) }
        #expect(asSidecar.description.contains(refusal))
    }

    @Test func isoMediaNestedAsCamerasWriteItIsHandedToExiv2() {
        for container in ["meta", "iprp", "moov"] {
            let file = NestedFixtures.isoMedia(
                container: container, lead: container == "meta" ? [0, 0, 0, 0] : [],
                depth: ExivInputCheck.maximumBoxDepth)
            #expect(
                ExivInputCheck.refusal(size: file.count) { Array(file.dropFirst($0).prefix($1)) } == nil, "\(container)"
            )
        }
        let deeper = NestedFixtures.isoMedia(container: "iprp", depth: ExivInputCheck.maximumBoxDepth + 1)
        #expect(ExivInputCheck.refusal(size: deeper.count) { Array(deeper.dropFirst($0).prefix($1)) } != nil)
    }

    /// Handed to exiv2, which reads them (though not yet the XMP exiftool writes into them).
    @Test(arguments: [["-q", "50"], ["-A", "-q", "50"]])
    func aHEICOrAVIFAsEncodersWriteItIsHandedToExiv2(encoding: [String]) throws {
        let directory = try TemporaryDirectory()
        let (source, path) = (directory.file("black.png"), directory.file("photo.heic"))
        try runTool("/usr/bin/vips", ["black", source, "64", "48", "--bands", "3"])
        try runTool("/usr/bin/heif-enc", encoding + [source, "-o", path])
        try runTool("/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP-xmp:Rating=4", path])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(ExivInputCheck.refusal(size: bytes.count) { Array(bytes.dropFirst($0).prefix($1)) } == nil)
        #expect(throws: Never.self) { try EmbeddedAnnotations.read(path: path) }
    }

    @Test func onlyAWholeCanonRawHeaderIsRecognised() {
        let header = NestedFixtures.canonRaw(depth: 0)
        func refused(_ bytes: [UInt8]) -> Bool {
            ExivInputCheck.refusal(size: bytes.count) { Array(bytes.dropFirst($0).prefix($1)) } != nil
        }
        #expect(refused(header))
        #expect(!refused(Array(header.prefix(13))))
        var misspelt = header
        misspelt[7] = UInt8(ascii: "X")
        #expect(!refused(misspelt))
    }
}
