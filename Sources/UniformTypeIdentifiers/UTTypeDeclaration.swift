/// One declared type: its identifier, the types it conforms to directly, and its tags, preferred ones first. The
/// identifiers, parents and tags are Apple's for the types a photo library meets.
struct UTTypeDeclaration: Sendable {
    let identifier: String
    let parents: [String]
    let filenameExtensions: [String]
    let mimeTypes: [String]

    init(_ identifier: String, _ parents: [String], extensions: [String] = [], mimeTypes: [String] = []) {
        self.identifier = identifier
        self.parents = parents
        self.filenameExtensions = extensions
        self.mimeTypes = mimeTypes
    }

    static let byIdentifier: [String: UTTypeDeclaration] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.identifier, $0) })

    /// Every declared type; a tag shared by several types names the first one.
    static let all: [UTTypeDeclaration] = roots + images + rawImages + movies + sounds

    private static let roots = [
        UTTypeDeclaration("public.item", []),
        UTTypeDeclaration("public.content", []),
        UTTypeDeclaration("public.data", ["public.item"]),
        UTTypeDeclaration("public.image", ["public.data", "public.content"]),
        UTTypeDeclaration("public.audiovisual-content", ["public.data", "public.content"]),
        UTTypeDeclaration("public.movie", ["public.audiovisual-content"]),
        UTTypeDeclaration("public.video", ["public.movie"]),
        UTTypeDeclaration("public.audio", ["public.audiovisual-content"]),
        UTTypeDeclaration("com.apple.live-photo", ["public.content"]),
    ]

    private static let images = [
        UTTypeDeclaration(
            "public.jpeg", ["public.image"], extensions: ["jpeg", "jpg", "jpe"], mimeTypes: ["image/jpeg", "image/jpg"]),
        UTTypeDeclaration("public.png", ["public.image"], extensions: ["png"], mimeTypes: ["image/png"]),
        UTTypeDeclaration("public.heic", ["public.image"], extensions: ["heic"], mimeTypes: ["image/heic"]),
        UTTypeDeclaration("public.heif", ["public.image"], extensions: ["heif"], mimeTypes: ["image/heif"]),
        UTTypeDeclaration("public.avif", ["public.image"], extensions: ["avif"], mimeTypes: ["image/avif"]),
        UTTypeDeclaration("org.webmproject.webp", ["public.image"], extensions: ["webp"], mimeTypes: ["image/webp"]),
        UTTypeDeclaration("public.tiff", ["public.image"], extensions: ["tiff", "tif"], mimeTypes: ["image/tiff"]),
        UTTypeDeclaration("com.compuserve.gif", ["public.image"], extensions: ["gif"], mimeTypes: ["image/gif"]),
        UTTypeDeclaration(
            "com.microsoft.bmp", ["public.image"], extensions: ["bmp"], mimeTypes: ["image/bmp", "image/x-bmp"]),
        UTTypeDeclaration("public.camera-raw-image", ["public.image"]),
    ]

    /// Camera makers' RAW formats, with the MIME types the library reports for them.
    private static let rawImages = [
        raw("com.adobe.raw-image", "dng", "image/x-adobe-dng"),
        raw("com.canon.cr2-raw-image", "cr2", "image/x-canon-cr2"),
        raw("com.canon.cr3-raw-image", "cr3", "image/x-canon-cr3"),
        raw("com.canon.crw-raw-image", "crw", "image/x-canon-crw"),
        raw("com.nikon.raw-image", "nef", "image/x-nikon-nef"),
        raw("com.nikon.nrw-raw-image", "nrw", "image/x-nikon-nrw"),
        raw("com.sony.arw-raw-image", "arw", "image/x-sony-arw"),
        raw("com.sony.sr2-raw-image", "sr2", "image/x-sony-sr2"),
        raw("com.sony.raw-image", "srf", "image/x-sony-srf"),
        raw("com.fuji.raw-image", "raf", "image/x-fuji-raf"),
        raw("com.olympus.raw-image", "orf", "image/x-olympus-orf"),
        raw("com.panasonic.rw2-raw-image", "rw2", "image/x-panasonic-rw2"),
        raw("com.panasonic.raw-image", "raw", "image/x-panasonic-raw"),
        raw("com.pentax.raw-image", "pef", "image/x-pentax-pef"),
        raw("com.samsung.raw-image", "srw", "image/x-samsung-srw"),
        raw("com.leica.rwl-raw-image", "rwl", "image/x-leica-rwl"),
        raw("com.hasselblad.3fr-raw-image", "3fr", "image/x-hasselblad-3fr"),
        raw("com.phaseone.raw-image", "iiq", "image/x-phaseone-iiq"),
        raw("com.epson.raw-image", "erf", "image/x-epson-erf"),
        raw("com.kodak.raw-image", "dcr", "image/x-kodak-dcr"),
        raw("com.kodak.kdc-raw-image", "kdc", "image/x-kodak-kdc"),
        raw("com.konicaminolta.raw-image", "mrw", "image/x-minolta-mrw"),
        raw("com.sigma.raw-image", "x3f", "image/x-sigma-x3f"),
        raw("com.leafamerica.raw-image", "mos", "image/x-leaf-mos"),
    ]

    private static let movies = [
        UTTypeDeclaration(
            "com.apple.quicktime-movie", ["public.movie"], extensions: ["mov", "qt"], mimeTypes: ["video/quicktime"]),
        UTTypeDeclaration("public.mpeg-4", ["public.movie"], extensions: ["mp4", "mpeg4"], mimeTypes: ["video/mp4"]),
        UTTypeDeclaration("com.apple.m4v-video", ["public.movie"], extensions: ["m4v"], mimeTypes: ["video/x-m4v"]),
        UTTypeDeclaration(
            "public.avi", ["public.movie"], extensions: ["avi", "vfw"],
            mimeTypes: ["video/avi", "video/msvideo", "video/x-msvideo"]),
        UTTypeDeclaration("org.matroska.mkv", ["public.movie"], extensions: ["mkv"], mimeTypes: ["video/x-matroska"]),
        UTTypeDeclaration("org.webmproject.webm", ["public.movie"], extensions: ["webm"], mimeTypes: ["video/webm"]),
    ]

    private static let sounds = [
        UTTypeDeclaration(
            "public.mp3", ["public.audio"], extensions: ["mp3"], mimeTypes: ["audio/mpeg", "audio/mpeg3", "audio/mp3"]),
        UTTypeDeclaration(
            "public.mpeg-4-audio", ["public.mpeg-4", "public.audio"], extensions: ["m4a"],
            mimeTypes: ["audio/mp4", "audio/x-m4a"]),
        UTTypeDeclaration(
            "com.microsoft.waveform-audio", ["public.audio"], extensions: ["wav", "wave"],
            mimeTypes: ["audio/vnd.wave", "audio/wav", "audio/wave", "audio/x-wav"]),
        UTTypeDeclaration("org.xiph.flac", ["public.audio"], extensions: ["flac"], mimeTypes: ["audio/flac"]),
    ]

    private static func raw(_ identifier: String, _ fileExtension: String, _ mimeType: String) -> UTTypeDeclaration {
        UTTypeDeclaration(
            identifier, ["public.camera-raw-image"], extensions: [fileExtension], mimeTypes: [mimeType])
    }
}
