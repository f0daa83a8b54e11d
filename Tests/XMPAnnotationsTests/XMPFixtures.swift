import Foundation
import TestSupport

/// Sidecars as darktable and Lightroom write them, and files made with exiftool, an independent writer.
enum XMPFixtures {
    /// A darktable sidecar: stars, a hierarchy, a title in two languages, and a history block that only
    /// darktable reads; `acme:` is a namespace no tool here knows.
    static let darktable = """
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
            xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmlns:darktable="http://darktable.sf.net/"
            xmlns:acme="http://example.com/acme/1.0/"
           xmp:Rating="3" darktable:xmp_version="5" darktable:history_end="2" acme:Secret="keep me">
           <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Sunset</rdf:li><rdf:li xml:lang="fr-FR">Coucher</rdf:li></rdf:Alt></dc:title>
           <dc:description><rdf:Alt><rdf:li xml:lang="x-default">At the beach</rdf:li></rdf:Alt></dc:description>
           <dc:subject><rdf:Bag><rdf:li>cat</rdf:li><rdf:li>Paris</rdf:li></rdf:Bag></dc:subject>
           <lr:hierarchicalSubject><rdf:Bag><rdf:li>cat</rdf:li><rdf:li>Places|Paris</rdf:li></rdf:Bag></lr:hierarchicalSubject>
           <darktable:history>
            <rdf:Seq>
             <rdf:li darktable:operation="exposure" darktable:enabled="1" darktable:modversion="6" darktable:params="0000"/>
             <rdf:li darktable:operation="colorin" darktable:enabled="1" darktable:modversion="7" darktable:params="gz48"/>
            </rdf:Seq>
           </darktable:history>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """

    /// A Lightroom sidecar (`NAME.xmp`): rejected, Camera Raw settings, levels of a hierarchy in dc:subject.
    static let lightroom = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000 1.000000">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
            xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" xmp:Rating="-1" crs:Exposure2012="+0.35">
           <dc:subject><rdf:Bag><rdf:li>Paris</rdf:li><rdf:li>Places</rdf:li><rdf:li>beach</rdf:li></rdf:Bag></dc:subject>
           <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|Paris</rdf:li></rdf:Bag></lr:hierarchicalSubject>
           <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Sand and sea</rdf:li></rdf:Alt></dc:description>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """

    /// What exiftool reads of `tags` (`-XMP-xmp:Rating`, …) in the file at `path`, one `Tag: value` per line.
    static func exiftool(_ path: String, _ tags: [String]) throws -> String {
        try runTool("/usr/bin/exiftool", ["-s", "-s", "-sep", ", "] + tags + [path]).output
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }
}
