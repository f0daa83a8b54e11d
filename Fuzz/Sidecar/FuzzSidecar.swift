import FuzzSupport
import PhotoModel
import XMPAnnotations

/// Every way XMP nests: lists of each kind, structures (as descriptions and as resources), plain elements.
let sidecarNesting = DeepNesting(
    [
        .init("<rdf:Bag><rdf:li>", "</rdf:li></rdf:Bag>", lead: "<dc:subject>", trail: "</dc:subject>"),
        .init(
            "<rdf:Seq><rdf:li>", "</rdf:li></rdf:Seq>", lead: "<lr:hierarchicalSubject>",
            trail: "</lr:hierarchicalSubject>"),
        .init(
            #"<rdf:Alt><rdf:li xml:lang="x-default">"#, "</rdf:li></rdf:Alt>", lead: "<dc:title>", trail: "</dc:title>"),
        .init("<acme:a><rdf:Description>", "</rdf:Description></acme:a>"),
        .init(#"<acme:a rdf:parseType="Resource">"#, "</acme:a>"),
        .init("<acme:a>", "</acme:a>"), .init("<rdf:Description>", "</rdf:Description>"),
        .init(
            #"<rdf:Bag><rdf:li rdf:parseType="Resource"><acme:a>"#, "</acme:a></rdf:li></rdf:Bag>", lead: "<acme:b>",
            trail: "</acme:b>"),
    ],
    prefix: """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
         xmlns:acme="http://example.com/acme/1.0/">
        """, suffix: "</rdf:Description></rdf:RDF></x:xmpmeta>")

func readSidecar(_ input: UnsafeRawBufferPointer) {
    sidecarNesting.withText(of: input, readSidecarBytes)
}

func readSidecarBytes(_ input: UnsafeRawBufferPointer) {
    guard let reading = try? SidecarFile.annotations(inSidecarBytes: Array(input)) else { return }
    _ = reading.annotations
    // A position the sidecar gives is on the globe, whatever its text said.
    if let location = reading.location, !location.isValid { fatalError("a sidecar gave \(location)") }
}

@main
struct FuzzSidecar {
    /// Feeds each input as an XMP sidecar's bytes, through exiv2 to the annotations photolibd takes from it; an input
    /// in deep-nesting mode stands for a sidecar nested as deep as it asks.
    static func main() throws {
        try FuzzTarget.run(readSidecar)
    }
}
