/// The stars, keywords, title and caption a photo file carries itself: its embedded XMP, and its IPTC-IIM where
/// the XMP says nothing.
public enum EmbeddedAnnotations {
    /// What the file whose bytes are `contents` says.
    public static func read(contents: UnsafeRawBufferPointer) throws(MetadataError) -> AnnotationReading {
        AnnotationProperties.read(try MetadataDocument(bytes: contents, isStrict: false), includesIPTC: true)
    }

    /// What the file at `path` says.
    public static func read(path: String) throws(MetadataError) -> AnnotationReading {
        AnnotationProperties.read(try MetadataDocument(path: path), includesIPTC: true)
    }
}
