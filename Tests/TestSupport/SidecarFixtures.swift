/// XMP sidecars as darktable writes them, for tests and benchmarks.
public enum SidecarFixtures {
    /// A darktable sidecar (`NAME.EXT.xmp`) with `rating` stars, the keywords `keyword` and `Places|Paris`, and a
    /// history block that only darktable reads.
    public static func darktable(rating: Int, keyword: String = "cat") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
            xmlns:darktable="http://darktable.sf.net/" xmp:Rating="\(rating)" darktable:xmp_version="5">
           <dc:subject><rdf:Bag><rdf:li>\(keyword)</rdf:li><rdf:li>Paris</rdf:li></rdf:Bag></dc:subject>
           <lr:hierarchicalSubject><rdf:Bag><rdf:li>\(keyword)</rdf:li><rdf:li>Places|Paris</rdf:li></rdf:Bag></lr:hierarchicalSubject>
           <darktable:history><rdf:Seq>
            <rdf:li darktable:operation="exposure" darktable:enabled="1" darktable:modversion="6" darktable:params="0000"/>
           </rdf:Seq></darktable:history>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """
    }
}
