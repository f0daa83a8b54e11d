import Testing
import UniformTypeIdentifiers

/// `UTType` as app code uses it: Apple's names, identifiers, conformance, extensions and MIME types both ways.
@Suite struct UTTypeTests {
    @Test(arguments: [
        (UTType.jpeg, "public.jpeg", "jpeg", "image/jpeg"), (.png, "public.png", "png", "image/png"),
        (.heic, "public.heic", "heic", "image/heic"), (.heif, "public.heif", "heif", "image/heif"),
        (.webP, "org.webmproject.webp", "webp", "image/webp"), (.tiff, "public.tiff", "tiff", "image/tiff"),
        (.gif, "com.compuserve.gif", "gif", "image/gif"), (.bmp, "com.microsoft.bmp", "bmp", "image/bmp"),
        (.quickTimeMovie, "com.apple.quicktime-movie", "mov", "video/quicktime"),
        (.mpeg4Movie, "public.mpeg-4", "mp4", "video/mp4"), (.avi, "public.avi", "avi", "video/avi"),
        (.mp3, "public.mp3", "mp3", "audio/mpeg"), (.mpeg4Audio, "public.mpeg-4-audio", "m4a", "audio/mp4"),
        (.wav, "com.microsoft.waveform-audio", "wav", "audio/vnd.wave"),
    ])
    func aTypeHasApplesIdentifierExtensionAndMIMEType(type: UTType, identifier: String, ext: String, mime: String) {
        #expect(type.identifier == identifier)
        #expect(type.description == identifier)
        #expect(type.preferredFilenameExtension == ext)
        #expect(type.preferredMIMEType == mime)
        #expect(UTType(identifier) == type)
        #expect(UTType(filenameExtension: ext) == type)
        #expect(UTType(mimeType: mime) == type)
    }

    @Test func typesConformToTheirSupertypesUpToDataAndContent() {
        #expect(UTType.jpeg.conforms(to: .image))
        #expect(
            UTType.jpeg.conforms(to: .data) && UTType.jpeg.conforms(to: .content) && UTType.jpeg.conforms(to: .item))
        #expect(UTType.jpeg.conforms(to: .jpeg))
        #expect(!UTType.jpeg.conforms(to: .movie))
        #expect(UTType.quickTimeMovie.conforms(to: .movie) && UTType.quickTimeMovie.conforms(to: .audiovisualContent))
        #expect(UTType.video.conforms(to: .movie))
        #expect(UTType.mp3.conforms(to: .audio) && !UTType.mp3.conforms(to: .movie))
        #expect(
            UTType.image.isSupertype(of: .png) && UTType.png.isSubtype(of: .image) && !UTType.png.isSubtype(of: .png))
        #expect(UTType.jpeg.supertypes == [.image, .data, .content, .item])
        #expect(UTType.livePhoto.identifier == "com.apple.live-photo")
    }

    @Test(arguments: [
        ("dng", "com.adobe.raw-image"), ("CR2", "com.canon.cr2-raw-image"), ("cr3", "com.canon.cr3-raw-image"),
        ("nef", "com.nikon.raw-image"), ("arw", "com.sony.arw-raw-image"), ("raf", "com.fuji.raw-image"),
        ("orf", "com.olympus.raw-image"), ("raw", "com.panasonic.raw-image"), ("rw2", "com.panasonic.rw2-raw-image"),
    ])
    func cameraRAWFormatsAreRawImages(ext: String, identifier: String) throws {
        let type = try #require(UTType(filenameExtension: ext))
        #expect(type.identifier == identifier)
        #expect(type.conforms(to: .rawImage) && type.conforms(to: .image))
        #expect(UTType(identifier)?.isSubtype(of: .rawImage) == true)
    }

    @Test func unknownNamesAndTypesOutsideTheSupertypeGiveNil() {
        #expect(UTType("com.example.nothing") == nil)
        #expect(UTType(filenameExtension: "xyz") == nil)
        #expect(UTType(mimeType: "application/x-nothing") == nil)
        #expect(UTType(filenameExtension: "jpg", conformingTo: .movie) == nil)
        #expect(UTType(filenameExtension: "jpg", conformingTo: .image) == .jpeg)
        #expect(UTType("PUBLIC.JPEG") == .jpeg)
        #expect(UTType(mimeType: "video/x-msvideo") == .avi)
    }
}
