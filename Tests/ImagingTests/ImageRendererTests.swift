import Foundation
import Imaging
import PhotoModel
import Testing
import TestSupport

private let renderer = ImageRenderer()

/// Writes a rendered image next to the fixtures so that the real vips and exiftool tools can read it.
private func save(_ image: RenderedImage, as name: String, in fixtures: Fixtures) throws -> String {
    try fixtures.write("\(name).\(image.format.fileExtension)", bytes: image.data)
}

// MARK: - Orientation and size

@Test(arguments: 1...8, [PixelSize(width: 120, height: 80), PixelSize(width: 80, height: 120)])
func everyOrientationComesOutUprightAtItsDisplayedSize(orientation: Int, upright: PixelSize) throws {
    let fixtures = try Fixtures()
    let photo = try MarkedPhotos.write(at: fixtures.path("turned.jpg"), width: upright.width, height: upright.height,
                                       orientation: orientation)
    for spec in [RenditionSpec(size: .original), RenditionSpec(size: .fit(PixelSize(width: 60, height: 60)))] {
        let image = try renderer.render(imageAt: photo, as: spec)
        #expect(image.size == spec.outputSize(forUpright: upright))
        let output = try save(image, as: "upright", in: fixtures)
        #expect(try ImageProbe.size(of: output) == (image.size.width, image.size.height))
        #expect(try MarkedPhotos.corners(of: output) == .upright, "orientation \(orientation), \(spec.size)")
    }
}

@Test(arguments: [
    RenditionSpec(size: .original),
    RenditionSpec(size: .shortSide(128)),
    RenditionSpec(size: .fit(PixelSize(width: 100, height: 100))),
    RenditionSpec(size: .fill(PixelSize(width: 100, height: 100))),
    RenditionSpec(size: .fit(PixelSize(width: 250, height: 90))),
    RenditionSpec(size: .fill(PixelSize(width: 250, height: 90))),
    RenditionSpec(size: .fit(PixelSize(width: 700, height: 700))),
])
func eachModeMakesTheSizeItsSpecPromises(spec: RenditionSpec) throws {
    let fixtures = try Fixtures()
    let photo = try MarkedPhotos.write(at: fixtures.path("photo.jpg"), width: 300, height: 200, orientation: 6)
    let image = try renderer.render(imageAt: photo, as: spec)
    #expect(image.size == spec.outputSize(forUpright: PixelSize(width: 300, height: 200)))
    #expect(image.format == .jpeg)
    let output = try save(image, as: "sized", in: fixtures)
    #expect(try ImageProbe.size(of: output) == (image.size.width, image.size.height))
    #expect(try MarkedPhotos.corners(of: output) == .upright)
}

@Test func aCropIsTakenFromTheUprightImage() throws {
    let fixtures = try Fixtures()
    let photo = try MarkedPhotos.write(at: fixtures.path("photo.jpg"), width: 300, height: 200, orientation: 8)
    // The top right quarter of the upright picture: the green block sits in its top right corner.
    let spec = RenditionSpec(size: .fit(PixelSize(width: 120, height: 120)), crop: NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 0.5))
    let image = try renderer.render(imageAt: photo, as: spec)
    #expect(image.size == PixelSize(width: 120, height: 80))
    let corners = try MarkedPhotos.corners(of: save(image, as: "crop", in: fixtures))
    #expect(corners == MarkedPhotos.Corners(topLeft: .grey, topRight: .green, bottomLeft: .grey))
}

@Test func aSmallCropIsEnlargedUpToTheImagesOwnSizeAndNoFurther() throws {
    let fixtures = try Fixtures()
    let photo = try MarkedPhotos.write(at: fixtures.path("photo.jpg"), width: 300, height: 200, orientation: 1)
    let spec = RenditionSpec(size: .fill(PixelSize(width: 400, height: 400)), crop: NormalizedRect(x: 0, y: 0, width: 0.2, height: 0.2))
    let image = try renderer.render(imageAt: photo, as: spec)
    #expect(image.size == PixelSize(width: 300, height: 200))
    let output = try save(image, as: "zoomed", in: fixtures)
    #expect(try ImageProbe.pixel(of: output, x: 150, y: 100).prefix(3).map { $0 > 200 } == [true, false, false])
}

// MARK: - Formats

@Test(arguments: [
    ("photo.png", ImageFileFormat.jpeg), ("photo.webp", .jpeg), ("photo.tif", .jpeg), ("photo.heic", .jpeg),
    ("photo.gif", .png),  // GIF loads with an alpha channel, since it can be transparent
])
func everyPhotoFormatRendersUpright(name: String, format: ImageFileFormat) throws {
    let fixtures = try Fixtures()
    let photo = try MarkedPhotos.write(at: fixtures.path(name), width: 120, height: 80, orientation: 1)
    let image = try renderer.render(imageAt: photo, as: RenditionSpec(size: .fit(PixelSize(width: 90, height: 90))))
    #expect(image.format == format)
    #expect(image.size == PixelSize(width: 90, height: 60))
    #expect(try MarkedPhotos.corners(of: save(image, as: "out", in: fixtures)) == .upright)
}

@Test func aPNGWithAlphaStaysAPNGWithItsTransparency() throws {
    let fixtures = try Fixtures()
    let source = fixtures.path("alpha.png")
    try fixtures.run("/usr/bin/vips", ["black", fixtures.path("black.v"), "100", "50", "--bands", "4"])
    try fixtures.run("/usr/bin/vips", ["linear", fixtures.path("black.v"), fixtures.path("half.v"), "1", "0 0 200 128", "--uchar"])
    try fixtures.run("/usr/bin/vips", ["copy", fixtures.path("half.v"), source])
    try fixtures.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-GPSLatitude=45.5", "-GPSLatitudeRef=N", source])
    let image = try renderer.render(imageAt: source, as: RenditionSpec(size: .fit(PixelSize(width: 40, height: 40))))
    #expect(image.format == .png)
    let output = try save(image, as: "out", in: fixtures)
    #expect(try ImageProbe.pixel(of: output, x: 20, y: 10) == [0, 0, 200, 128])
    #expect(try ImageProbe.metadataTags(of: output).allSatisfy(ImageProbe.isImageStructure))
}

@Test func aCMYKJPEGComesOutInRGB() throws {
    let fixtures = try Fixtures()
    try fixtures.run("/usr/bin/vips", ["black", fixtures.path("black.v"), "100", "80", "--bands", "3"])
    try fixtures.run("/usr/bin/vips", ["linear", fixtures.path("black.v"), fixtures.path("red.v"), "1", "200 30 40", "--uchar"])
    try fixtures.run("/usr/bin/vips", ["icc_export", fixtures.path("red.v"), fixtures.path("cmyk.jpg"), "--output-profile", "cmyk"])
    #expect(try ImageProbe.pixel(of: fixtures.path("cmyk.jpg"), x: 0, y: 0).count == 4)
    let image = try renderer.render(imageAt: fixtures.path("cmyk.jpg"), as: RenditionSpec(size: .original))
    let pixel = try ImageProbe.pixel(of: save(image, as: "out", in: fixtures), x: 50, y: 40)
    #expect(pixel.count == 3)
    #expect(pixel[0] > 180 && pixel[1] < 90 && pixel[2] < 90, "\(pixel)")
}

@Test func sixteenBitImagesKeepTheirColours() throws {
    let fixtures = try Fixtures()
    try fixtures.run("/usr/bin/vips", ["black", fixtures.path("black.v"), "100", "80", "--bands", "3"])
    try fixtures.run("/usr/bin/vips", ["linear", fixtures.path("black.v"), fixtures.path("deep.v"), "1", "51200 7680 10240"])
    try fixtures.run("/usr/bin/vips", ["cast", fixtures.path("deep.v"), fixtures.path("deep16.v"), "ushort"])
    try fixtures.run("/usr/bin/vips", ["copy", fixtures.path("deep16.v"), fixtures.path("deep.png"), "--interpretation", "rgb16"])
    try fixtures.run("/usr/bin/vips", ["copy", fixtures.path("deep16.v"), fixtures.path("deep.tif"), "--interpretation", "rgb16"])
    for source in ["deep.png", "deep.tif"] {
        let image = try renderer.render(imageAt: fixtures.path(source), as: RenditionSpec(size: .fit(PixelSize(width: 50, height: 50))))
        let pixel = try ImageProbe.pixel(of: save(image, as: "out-\(source)", in: fixtures), x: 25, y: 20)
        #expect(pixel.count == 3 && abs(pixel[0] - 200) < 8 && abs(pixel[1] - 30) < 8 && abs(pixel[2] - 40) < 8, "\(source): \(pixel)")
    }
}

@Test func aSixteenBitGreyImageStaysGrey() throws {
    let fixtures = try Fixtures()
    try fixtures.run("/usr/bin/vips", ["black", fixtures.path("black.v"), "60", "40"])
    try fixtures.run("/usr/bin/vips", ["linear", fixtures.path("black.v"), fixtures.path("grey.v"), "1", "32768"])
    try fixtures.run("/usr/bin/vips", ["cast", fixtures.path("grey.v"), fixtures.path("grey16.v"), "ushort"])
    try fixtures.run("/usr/bin/vips", ["copy", fixtures.path("grey16.v"), fixtures.path("grey.png"), "--interpretation", "grey16"])
    let image = try renderer.render(imageAt: fixtures.path("grey.png"), as: RenditionSpec(size: .original))
    let pixel = try ImageProbe.pixel(of: save(image, as: "out", in: fixtures), x: 30, y: 20)
    #expect(pixel.count == 1 && abs(pixel[0] - 128) < 3, "\(pixel)")
}

// MARK: - Metadata

@Test(arguments: ["photo.jpg", "photo.png", "photo.webp", "photo.tif", "photo.heic"])
func noMetadataLeavesWithARenderedImage(name: String) throws {
    let fixtures = try Fixtures()
    let photo = try MarkedPhotos.write(at: fixtures.path(name), width: 120, height: 80, orientation: 1, exif: [
        "-GPSLatitude=45.5", "-GPSLatitudeRef=N", "-GPSLongitude=73.25", "-GPSLongitudeRef=W",
        "-Make=Canon", "-Model=EOS", "-DateTimeOriginal=2024:01:31 10:15:00", "-XMP:Creator=Ann",
    ])
    #expect(try ImageProbe.metadataTags(of: photo).contains { $0.contains("GPS") })
    let rendered = try renderer.render(imageAt: photo, as: RenditionSpec(size: .fit(PixelSize(width: 60, height: 60))))
    let embedded = try renderer.embeddedThumbnail(ofImageAt: photo)
    for image in [rendered] + (embedded.map { [$0] } ?? []) {
        let tags = try ImageProbe.metadataTags(of: save(image, as: "out", in: fixtures))
        #expect(tags.allSatisfy(ImageProbe.isImageStructure), "\(name): \(tags)")
    }
}

@Test func aPNGForTheThumbnailStandardCarriesOnlyItsTextChunks() throws {
    let fixtures = try Fixtures()
    let photo = try MarkedPhotos.write(at: fixtures.path("photo.jpg"), width: 300, height: 200, orientation: 6,
                                       exif: ["-GPSLatitude=45.5", "-GPSLatitudeRef=N"])
    let image = try renderer.renderPNG(
        imageAt: photo, as: RenditionSpec(size: .fit(PixelSize(width: 128, height: 128))),
        text: [PNGTextChunk(keyword: "Thumb::URI", text: "file:///photo.jpg"), PNGTextChunk(keyword: "Thumb::MTime", text: "1700000000")])
    #expect(image.format == .png && image.size == PixelSize(width: 128, height: 85))
    let output = try save(image, as: "thumbnail", in: fixtures)
    let tags = try ImageProbe.metadataTags(of: output)
    #expect(tags.filter { !ImageProbe.isImageStructure($0) } == ["PNG:ThumbURI", "PNG:ThumbMTime"])
    #expect(try MarkedPhotos.corners(of: output) == .upright)
}

// MARK: - Bad input

@Test func aTruncatedJPEGGivesWhatIsReadable() throws {
    let fixtures = try Fixtures()
    let photo = try MarkedPhotos.write(at: fixtures.path("whole.jpg"), width: 300, height: 200, orientation: 1)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
    let truncated = try fixtures.write("truncated.jpg", bytes: Array(bytes.prefix(bytes.count / 2)))
    let image = try renderer.render(imageAt: truncated, as: RenditionSpec(size: .fit(PixelSize(width: 150, height: 150))))
    #expect(image.size == PixelSize(width: 150, height: 100))
    #expect(try ImageProbe.pixel(of: save(image, as: "out", in: fixtures), x: 10, y: 10).first ?? 0 > 200)
}

@Test func aJPEGWithHundredsOfWarningsStillRenders() throws {
    let fixtures = try Fixtures()
    try fixtures.run("/usr/bin/vips", ["gaussnoise", fixtures.path("noise.v"), "320", "240"])
    try fixtures.run("/usr/bin/vips", ["cast", fixtures.path("noise.v"), fixtures.path("noise8.v"), "uchar"])
    try fixtures.run("/usr/bin/vips", ["jpegsave", fixtures.path("noise8.v"), fixtures.path("clean.jpg"), "--restart-interval", "1"])
    // Two stray bytes before every restart marker: libjpeg warns once a marker, about 1,200 times.
    let clean = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtures.path("clean.jpg"))))
    var damaged: [UInt8] = []
    for (index, byte) in clean.enumerated() {
        if byte == 0xFF, index + 1 < clean.count, (0xD0...0xD7).contains(clean[index + 1]) { damaged += [0x41, 0x42] }
        damaged.append(byte)
    }
    let path = try fixtures.write("warnings.jpg", bytes: damaged)
    let image = try renderer.render(imageAt: path, as: RenditionSpec(size: .fit(PixelSize(width: 100, height: 100))))
    #expect(image.size == PixelSize(width: 100, height: 75))
}

@Test func garbageNamedLikeAJPEGIsUnreadable() throws {
    let fixtures = try Fixtures()
    let path = try fixtures.write("garbage.jpg", bytes: Array("this is not a photo at all".utf8))
    let error = #expect(throws: ImagingError.self) {
        try renderer.render(imageAt: path, as: RenditionSpec(size: .original))
    }
    guard case .unreadable(let reportedPath, let reason) = error else {
        Issue.record("expected .unreadable, got \(String(describing: error))")
        return
    }
    #expect(reportedPath == path && reason.contains("is not a known file format"))
}

@Test(arguments: [
    ("drawing.jpg", #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#, "svgload: operation is blocked"),
    ("numbers.jpg", "2 2\n1 2\n3 4\n", "matrixload, which is not a photo format"),
])
func filesOfUntrustedOrNonPhotoLoadersAreRefused(name: String, content: String, reason: String) throws {
    let fixtures = try Fixtures()
    let path = try fixtures.write(name, bytes: Array(content.utf8))
    let error = #expect(throws: ImagingError.self) { try renderer.render(imageAt: path, as: RenditionSpec(size: .original)) }
    guard case .unreadable(_, let message) = error else {
        Issue.record("expected .unreadable, got \(String(describing: error))")
        return
    }
    #expect(message.contains(reason), "\(message)")
}

@Test(arguments: ["bomb.png", "bomb.jpg"])
func aDecompressionBombIsRefusedByThePixelLimitBeforeDecoding(name: String) throws {
    let fixtures = try Fixtures()
    let bytes = name.hasSuffix(".png") ? pngHeader(width: 50_000, height: 50_000) : try jpegDeclaring(width: 50_000, height: 50_000, in: fixtures)
    let path = try fixtures.write(name, bytes: bytes)
    let limited = ImageRenderer(maximumPixels: 100_000_000)
    #expect(throws: ImagingError.tooLarge(path: path, width: 50_000, height: 50_000, limit: 100_000_000)) {
        try limited.render(imageAt: path, as: RenditionSpec(size: .fit(PixelSize(width: 256, height: 256))))
    }
    #expect(throws: ImagingError.tooLarge(path: path, width: 50_000, height: 50_000, limit: 100_000_000)) {
        try limited.embeddedThumbnail(ofImageAt: path)
    }
}

/// A baseline JPEG whose frame header declares `width`×`height`, though its data is that of a small image.
private func jpegDeclaring(width: Int, height: Int, in fixtures: Fixtures) throws -> [UInt8] {
    let small = try fixtures.image("small.jpg", width: 16, height: 16)
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: small)))
    let frame = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
    bytes.replaceSubrange(frame + 5..<frame + 9, with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
    return bytes
}

// MARK: - Embedded thumbnails

@Test func theEXIFThumbnailComesOutUprightWithoutLetterboxBars() throws {
    let fixtures = try Fixtures()
    // A 16:9 photo stored turned a quarter, whose camera padded its 4:3 thumbnail with black bars.
    let thumbnail = try MarkedPhotos.write(at: fixtures.path("thumb-core.jpg"), width: 160, height: 90, orientation: 6)
    try fixtures.run("/usr/bin/vips", ["embed", thumbnail, fixtures.path("thumb.jpg") + "[strip]", "15", "0", "120", "160"])
    let photo = try MarkedPhotos.write(at: fixtures.path("photo.jpg"), width: 640, height: 360, orientation: 6)
    try fixtures.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-ThumbnailImage<=\(fixtures.path("thumb.jpg"))", photo])

    let image = try #require(try renderer.embeddedThumbnail(ofImageAt: photo))
    #expect(image.size == PixelSize(width: 160, height: 90))
    #expect(try MarkedPhotos.corners(of: save(image, as: "degraded", in: fixtures)) == .upright)
}

@Test func aHEIFThumbnailItemIsUsed() throws {
    let fixtures = try Fixtures()
    let source = try MarkedPhotos.write(at: fixtures.path("source.jpg"), width: 640, height: 480, orientation: 1)
    try fixtures.run("/usr/bin/heif-enc", ["-q", "60", "-t", "128", source, "-o", fixtures.path("photo.heic")])
    let image = try #require(try renderer.embeddedThumbnail(ofImageAt: fixtures.path("photo.heic")))
    #expect(image.size == PixelSize(width: 128, height: 96))
    #expect(try MarkedPhotos.corners(of: save(image, as: "degraded", in: fixtures)) == .upright)
}

@Test(arguments: ["plain.jpg", "plain.heic", "plain.png"])
func aFileWithoutAnEmbeddedThumbnailHasNone(name: String) throws {
    let fixtures = try Fixtures()
    #expect(try renderer.embeddedThumbnail(ofImageAt: fixtures.image(name, width: 64, height: 48)) == nil)
}

// MARK: - Videos

@Test func aRotatedVideosPosterFrameIsUpright() throws {
    let fixtures = try Fixtures()
    let video = fixtures.path("clip.mp4")
    try fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=3",
                                         "-pix_fmt", "yuv420p", fixtures.path("upright.mp4")])
    // Copied with a rotation tag, the stream gets a display matrix, as a phone held upright records.
    try fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-i", fixtures.path("upright.mp4"), "-c", "copy",
                                         "-metadata:s:v:0", "rotate=90", video])
    let frame = try PosterFrameReader().posterFrame(ofVideoAt: video, duration: 3)
    let image = try renderer.render(encodedImage: frame, named: video, as: RenditionSpec(size: .fit(PixelSize(width: 100, height: 100))))
    #expect(image.size == PixelSize(width: 75, height: 100))
}

@Test func aFileThatIsNoVideoGivesNoFrameAndSaysWhy() throws {
    let fixtures = try Fixtures()
    let path = try fixtures.write("broken.mp4", bytes: Array("not a video".utf8))
    let error = #expect(throws: ImagingError.self) { try PosterFrameReader().posterFrame(ofVideoAt: path, duration: 10) }
    guard case .noVideoFrame(let reportedPath, let reason) = error else {
        Issue.record("expected .noVideoFrame, got \(String(describing: error))")
        return
    }
    #expect(reportedPath == path && !reason.isEmpty)
}

// MARK: - Concurrency

@Test func rendersOnManyThreadsAtOnceMatchRendersOneAtATime() throws {
    let fixtures = try Fixtures()
    let photos = try (1...4).map { try MarkedPhotos.write(at: fixtures.path("photo\($0).jpg"), width: 200, height: 150, orientation: $0 * 2) }
    let spec = RenditionSpec(size: .fill(PixelSize(width: 64, height: 64)))
    let expected = try photos.map { try renderer.render(imageAt: $0, as: spec) }
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 32) { index in
        results.append(index % photos.count, Result { () throws(ImagingError) in try renderer.render(imageAt: photos[index % photos.count], as: spec) })
    }
    #expect(results.all.count == 32)
    for (index, result) in results.all {
        #expect(try result.get() == expected[index])
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [(Int, Result<RenderedImage, ImagingError>)] = []

    func append(_ index: Int, _ result: Result<RenderedImage, ImagingError>) {
        lock.withLock { results.append((index, result)) }
    }

    var all: [(Int, Result<RenderedImage, ImagingError>)] {
        lock.withLock { results }
    }
}
