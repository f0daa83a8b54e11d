import Foundation
import Testing
import TestSupport
@testable import XMPAnnotations

/// Input nested 100,000 deep never reaches a parser of exiv2's that would recurse through it: exiv2 refuses deep
/// XMP itself (its XML validator, Exiv2 PR 1878), and a Canon CRW, whose directories exiv2 follows without a
/// limit, is recognised by its header and never handed to it. Either way the process lives and says why.
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

    @Test func aCanonRawFileIsNeverHandedToExiv2() throws {
        let crw = NestedFixtures.canonRaw(depth: Self.depth)
        let fromBytes = try #require(throws: MetadataError.self) {
            try crw.withUnsafeBytes { bytes throws(MetadataError) in try EmbeddedAnnotations.read(contents: bytes) }
        }
        #expect(fromBytes.description.contains("Canon CRW"))
        let directory = try TemporaryDirectory()
        let path = directory.file("IMG_0001.CRW")
        try Data(crw).write(to: URL(fileURLWithPath: path))
        let fromFile = try #require(throws: MetadataError.self) { try EmbeddedAnnotations.read(path: path) }
        #expect(fromFile == fromBytes)
        let asSidecar = try #require(throws: SidecarError.self) { try SidecarFile.annotations(inSidecarBytes: crw) }
        #expect(asSidecar.description.contains("Canon CRW"))
    }

    @Test func onlyAWholeCanonRawHeaderIsRecognised() {
        let header = NestedFixtures.canonRaw(depth: 0)
        #expect(CanonRawHeader.begins(header))
        #expect(!CanonRawHeader.begins(header.prefix(13)))
        var misspelt = header
        misspelt[7] = UInt8(ascii: "X")
        #expect(!CanonRawHeader.begins(misspelt))
        var mixedOrder = header
        mixedOrder[1] = UInt8(ascii: "M")
        #expect(!CanonRawHeader.begins(mixedOrder))
    }
}
