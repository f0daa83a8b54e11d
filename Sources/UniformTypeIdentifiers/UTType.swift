/// UniformTypeIdentifiers' `UTType`: a type of file or data, named by its identifier (`public.jpeg`), with its
/// supertypes, filename extensions and MIME types. Only the declared types below exist: there are no dynamic types.
public struct UTType: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The type's identifier, such as `public.jpeg`.
    public let identifier: String

    private var declaration: UTTypeDeclaration { UTTypeDeclaration.byIdentifier[identifier]! }

    private init(declared identifier: String) {
        self.identifier = identifier
    }

    /// The declared type with this identifier (compared without regard to case), or nil.
    public init?(_ identifier: String) {
        guard let declaration = UTTypeDeclaration.byIdentifier[identifier.lowercased()] else { return nil }
        self.identifier = declaration.identifier
    }

    /// The first declared type that `filenameExtension` (without its dot, any case) names and that conforms to
    /// `supertype`, or nil.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        let tag = filenameExtension.lowercased()
        guard let type = UTType.declared(conformingTo: supertype, where: { $0.filenameExtensions.contains(tag) })
        else { return nil }
        self = type
    }

    /// The first declared type with this MIME type (any case) that conforms to `supertype`, or nil.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        let tag = mimeType.lowercased()
        guard let type = UTType.declared(conformingTo: supertype, where: { $0.mimeTypes.contains(tag) }) else {
            return nil
        }
        self = type
    }

    /// The extension files of this type usually have, without its dot (`jpeg`).
    public var preferredFilenameExtension: String? { declaration.filenameExtensions.first }

    /// The MIME type of this type's data (`image/jpeg`), when it has one.
    public var preferredMIMEType: String? { declaration.mimeTypes.first }

    /// Every type this one conforms to, its parents' parents too; not itself.
    public var supertypes: Set<UTType> {
        var found: Set<UTType> = []
        var pending = declaration.parents
        while let parent = pending.popLast() {
            let type = UTType(declared: parent)
            if found.insert(type).inserted { pending += type.declaration.parents }
        }
        return found
    }

    /// Whether this type is `type` or one of its subtypes (`UTType.jpeg.conforms(to: .image)`).
    public func conforms(to type: UTType) -> Bool {
        self == type || supertypes.contains(type)
    }

    /// Whether this type conforms to `type` and is not `type`.
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }

    /// Whether `type` conforms to this type and is not it.
    public func isSupertype(of type: UTType) -> Bool { type.isSubtype(of: self) }

    /// Always true: every type here is declared.
    public var isDeclared: Bool { true }

    /// Always false: this stand-in makes no dynamic types.
    public var isDynamic: Bool { false }

    /// Whether the type is one of the `public.` types.
    public var isPublic: Bool { identifier.hasPrefix("public.") }

    public var description: String { identifier }

    public var debugDescription: String { identifier }

    private static func declared(
        conformingTo supertype: UTType, where matches: (UTTypeDeclaration) -> Bool
    ) -> UTType? {
        UTTypeDeclaration.all.lazy.filter(matches).map { UTType(declared: $0.identifier) }
            .first { $0.conforms(to: supertype) }
    }
}

extension UTType {
    /// The type named by a declared identifier.
    init(known identifier: String) {
        precondition(UTTypeDeclaration.byIdentifier[identifier] != nil, "\(identifier) is not declared")
        self.init(declared: identifier)
    }

    // The roots and the kinds of content.
    public static let item = UTType(known: "public.item")
    public static let content = UTType(known: "public.content")
    public static let data = UTType(known: "public.data")
    public static let image = UTType(known: "public.image")
    public static let audiovisualContent = UTType(known: "public.audiovisual-content")
    public static let movie = UTType(known: "public.movie")
    public static let video = UTType(known: "public.video")
    public static let audio = UTType(known: "public.audio")
    public static let livePhoto = UTType(known: "com.apple.live-photo")

    // Images.
    public static let jpeg = UTType(known: "public.jpeg")
    public static let png = UTType(known: "public.png")
    public static let heic = UTType(known: "public.heic")
    public static let heif = UTType(known: "public.heif")
    public static let webP = UTType(known: "org.webmproject.webp")
    public static let tiff = UTType(known: "public.tiff")
    public static let gif = UTType(known: "com.compuserve.gif")
    public static let bmp = UTType(known: "com.microsoft.bmp")
    /// Camera RAW images; each camera maker's format is a subtype (`com.canon.cr2-raw-image`).
    public static let rawImage = UTType(known: "public.camera-raw-image")

    // Movies and sound.
    public static let quickTimeMovie = UTType(known: "com.apple.quicktime-movie")
    public static let mpeg4Movie = UTType(known: "public.mpeg-4")
    public static let avi = UTType(known: "public.avi")
    public static let mp3 = UTType(known: "public.mp3")
    public static let mpeg4Audio = UTType(known: "public.mpeg-4-audio")
    public static let wav = UTType(known: "com.microsoft.waveform-audio")
}
