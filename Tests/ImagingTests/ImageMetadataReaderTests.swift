import Foundation
import PhotoModel
import Imaging
import Testing

private let reader = ImageMetadataReader()

// MARK: - Size, format and orientation

@Test func aPlainJPEGReportsItsFormatAndSizeAndNothingElse() throws {
    let fixtures = try Fixtures()
    let metadata = try reader.readMetadata(atPath: fixtures.image("plain.jpg", width: 120, height: 80))
    #expect(metadata == ImageMetadata(format: "jpegload", mimeType: "image/jpeg", storedWidth: 120, storedHeight: 80))
    #expect((metadata.pixelWidth, metadata.pixelHeight) == (120, 80))
}

@Test(arguments: [
    ("photo.png", "pngload", "image/png"),
    ("photo.webp", "webpload", "image/webp"),
    ("photo.gif", "gifload", "image/gif"),
    ("photo.tif", "tiffload", "image/tiff"),
    ("photo.heic", "heifload", "image/heic"),
    ("photo.avif", "heifload", "image/avif"),
])
func eachPhotoFormatIsNamedByLoaderAndMIMEType(name: String, loader: String, mimeType: String) throws {
    let fixtures = try Fixtures()
    let metadata = try reader.readMetadata(atPath: fixtures.image(name, width: 64, height: 48))
    #expect(metadata.format == loader)
    #expect(metadata.mimeType == mimeType)
    #expect((metadata.storedWidth, metadata.storedHeight) == (64, 48))
}

@Test(arguments: 1...8)
func theEXIFOrientationIsReportedAndQuarterTurnsSwapTheDisplayedSize(orientation: Int) throws {
    let fixtures = try Fixtures()
    let path = try fixtures.image("turned.jpg", width: 120, height: 80, exif: ["-Orientation#=\(orientation)"])
    let metadata = try reader.readMetadata(atPath: path)
    let quarterTurn = orientation >= 5
    #expect(metadata.orientation == orientation)
    #expect((metadata.storedWidth, metadata.storedHeight) == (120, 80))
    #expect((metadata.pixelWidth, metadata.pixelHeight) == (quarterTurn ? (80, 120) : (120, 80)))
}

@Test(arguments: [0, 9, 65535])
func anOrientationOutsideOneToEightReadsAsUpright(value: Int) throws {
    let fixtures = try Fixtures()
    let metadata = try reader.readMetadata(atPath: fixtures.image("odd.jpg", exif: ["-Orientation#=\(value)"]))
    #expect(metadata.orientation == 1)
    #expect((metadata.pixelWidth, metadata.pixelHeight) == (120, 80))
}

@Test func aPNGCarriesItsEXIFOrientationDateAndLocation() throws {
    let fixtures = try Fixtures()
    let path = try fixtures.image("photo.png", width: 120, height: 80, exif: [
        "-Orientation#=6", "-DateTimeOriginal=2023:07:14 18:30:05",
        "-GPSLatitude=45.5", "-GPSLatitudeRef=N", "-GPSLongitude=73.25", "-GPSLongitudeRef=W",
    ])
    let metadata = try reader.readMetadata(atPath: path)
    #expect(metadata.mimeType == "image/png")
    #expect(metadata.orientation == 6)
    #expect((metadata.pixelWidth, metadata.pixelHeight) == (80, 120))
    #expect(metadata.dateTimeOriginal == ExifDateTime(year: 2023, month: 7, day: 14, hour: 18, minute: 30, second: 5))
    #expect(matches(metadata.location, GeoLocation(latitude: 45.5, longitude: -73.25)))
}

@Test func theCameraLensAndExposureAreReadAsTheCameraWroteThem() throws {
    let fixtures = try Fixtures()
    let path = try fixtures.image("camera.jpg", exif: [
        "-Make=Canon", "-Model=Canon EOS R5", "-LensModel=RF24-70mm F2.8 L IS USM", "-FNumber=2.8",
        "-ExposureTime=1/125", "-ISO=400", "-FocalLength=50", "-FocalLengthIn35mmFormat=50",
    ])
    let camera = try reader.readMetadata(atPath: path).camera
    #expect(camera == CameraData(make: "Canon", model: "Canon EOS R5", lensModel: "RF24-70mm F2.8 L IS USM", fNumber: 2.8,
                                 exposureTime: 0.008, iso: 400, focalLength: 50, focalLength35mm: 50))
    let plain = try reader.readMetadata(atPath: fixtures.image("plain.jpg")).camera
    #expect(plain == CameraData())
}

@Test(arguments: ["photo.jpg", "photo.png", "photo.webp", "photo.heic", "photo.avif"])
func exifDateAndPlaceAreReadFromEachFormatThatCarriesEXIF(name: String) throws {
    let fixtures = try Fixtures()
    let path = try fixtures.image(name, exif: [
        "-DateTimeOriginal=2022:11:05 07:08:09", "-OffsetTimeOriginal=+05:45",
        "-GPSLatitude=27.7172", "-GPSLatitudeRef=N", "-GPSLongitude=85.324", "-GPSLongitudeRef=E",
    ])
    let metadata = try reader.readMetadata(atPath: path)
    #expect(metadata.dateTimeOriginal == ExifDateTime(
        year: 2022, month: 11, day: 5, hour: 7, minute: 8, second: 9, utcOffsetSeconds: 20_700))
    #expect(matches(metadata.location, GeoLocation(latitude: 27.7172, longitude: 85.324)))
}

/// HEIF rotates with its own `irot` box, which libheif applies while loading, so libvips drops the
/// EXIF orientation: honouring it too would turn the photo twice.
@Test func aHEICsEXIFOrientationIsLeftToTheContainer() throws {
    let fixtures = try Fixtures()
    let metadata = try reader.readMetadata(atPath: fixtures.image("turned.heic", exif: ["-Orientation#=6"]))
    #expect(metadata.orientation == 1)
    #expect((metadata.pixelWidth, metadata.pixelHeight) == (120, 80))
}

@Test func aFileRewrittenInPlaceIsReadAfresh() throws {
    let fixtures = try Fixtures()
    let path = try fixtures.image("same.jpg", width: 120, height: 80)
    #expect(try reader.readMetadata(atPath: path).storedWidth == 120)
    _ = try fixtures.image("same.jpg", width: 64, height: 48)
    #expect(try reader.readMetadata(atPath: path).storedWidth == 64)
}

// MARK: - EXIF dates

@Test(arguments: [
    (["-DateTimeOriginal=2024:01:31 10:15:00"],
     ExifDateTime(year: 2024, month: 1, day: 31, hour: 10, minute: 15, second: 0)),
    (["-DateTimeOriginal=2024:01:31 10:15:00", "-OffsetTimeOriginal=+01:00"],
     ExifDateTime(year: 2024, month: 1, day: 31, hour: 10, minute: 15, second: 0, utcOffsetSeconds: 3_600)),
    (["-DateTimeOriginal=2024:01:31 10:15:00", "-OffsetTimeOriginal=-05:30"],
     ExifDateTime(year: 2024, month: 1, day: 31, hour: 10, minute: 15, second: 0, utcOffsetSeconds: -19_800)),
    (["-DateTimeOriginal=2024:02:29 23:59:59", "-SubSecTimeOriginal=25", "-OffsetTimeOriginal=+09:00"],
     ExifDateTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59,
                  fractionalSecond: 0.25, utcOffsetSeconds: 32_400)),
    (["-DateTimeOriginal=1999:12:31 00:00:01", "-SubSecTimeOriginal=007"],
     ExifDateTime(year: 1999, month: 12, day: 31, hour: 0, minute: 0, second: 1, fractionalSecond: 0.007)),
    (["-DateTimeOriginal=2024:01:31 10:15:00", "-OffsetTimeOriginal#=bogus", "-SubSecTimeOriginal#=x1"],
     ExifDateTime(year: 2024, month: 1, day: 31, hour: 10, minute: 15, second: 0)),
    (["-DateTimeDigitized=2024:01:31 10:15:00", "-OffsetTimeDigitized=+01:00"], nil),
    (["-DateTimeOriginal#=2024:13:45 25:00:00"], nil),
    (["-DateTimeOriginal#=0000:00:00 00:00:00"], nil),
    (["-DateTimeOriginal#=yesterday"], nil),
] as [([String], ExifDateTime?)], ExifByteOrder.allCases)
func dateTimeOriginalIsReadWithItsOffsetAndSubseconds(
    tags: ([String], ExifDateTime?), byteOrder: ExifByteOrder
) throws {
    let (exif, expected) = tags
    let fixtures = try Fixtures()
    let metadata = try reader.readMetadata(atPath: fixtures.image("dated.jpg", exif: exif, byteOrder: byteOrder))
    #expect(metadata.dateTimeOriginal == expected)
}

// MARK: - GPS

@Test(arguments: [
    (["-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
      "-GPSAltitude=35", "-GPSAltitudeRef#=0"],
     GeoLocation(latitude: 48.8584, longitude: 2.2945, altitude: 35)),
    (["-GPSLatitude=22.9519", "-GPSLatitudeRef=S", "-GPSLongitude=43.2105", "-GPSLongitudeRef=W",
      "-GPSAltitude=700.25"],
     GeoLocation(latitude: -22.9519, longitude: -43.2105, altitude: 700.25)),
    (["-GPSLatitude=31.5", "-GPSLatitudeRef=N", "-GPSLongitude=35.5", "-GPSLongitudeRef=E",
      "-GPSAltitude=430.5", "-GPSAltitudeRef#=1"],
     GeoLocation(latitude: 31.5, longitude: 35.5, altitude: -430.5)),
    (["-GPSLatitude=33.865", "-GPSLatitudeRef=S", "-GPSLongitude=151.2094", "-GPSLongitudeRef=E"],
     GeoLocation(latitude: -33.865, longitude: 151.2094)),
    (["-GPSLatitude=64.1", "-GPSLatitudeRef=N", "-GPSLongitude=21.9", "-GPSLongitudeRef=W",
      "-GPSAltitude=5", "-GPSAltitudeRef#=7"],
     GeoLocation(latitude: 64.1, longitude: -21.9)),
    (["-GPSLatitude=33.865", "-GPSLongitude=151.2094", "-GPSLongitudeRef=E"], nil),
    (["-GPSLatitude=95", "-GPSLatitudeRef=N", "-GPSLongitude=10", "-GPSLongitudeRef=E"], nil),
    (["-GPSAltitude=35", "-GPSAltitudeRef#=0"], nil),
] as [([String], GeoLocation?)], ExifByteOrder.allCases)
func gpsTagsGiveASignedLocationWithAltitude(tags: ([String], GeoLocation?), byteOrder: ExifByteOrder) throws {
    let (exif, expected) = tags
    let fixtures = try Fixtures()
    let location = try reader.readMetadata(atPath: fixtures.image("placed.jpg", exif: exif, byteOrder: byteOrder)).location
    #expect(matches(location, expected), "\(String(describing: location))")
}

@Test(arguments: [
    (["-GPSDateStamp=2024:01:31", "-GPSTimeStamp=15:45:30.5"], utc(2024, 1, 31, 15, 45, 30, 0.5)),
    (["-GPSDateStamp=2024:02:29", "-GPSTimeStamp=23:59:59"], utc(2024, 2, 29, 23, 59, 59)),
    (["-GPSDateStamp=1969:12:31", "-GPSTimeStamp=00:00:01"], utc(1969, 12, 31, 0, 0, 1)),
    (["-GPSDateStamp=2024:01:31"], nil),
    (["-GPSTimeStamp=15:45:30"], nil),
    (["-GPSDateStamp#=2023:02:29", "-GPSTimeStamp=12:00:00"], nil),
] as [([String], Date?)])
func gpsDateAndTimeStampsGiveTheUTCInstant(exif: [String], expected: Date?) throws {
    let fixtures = try Fixtures()
    let metadata = try reader.readMetadata(atPath: fixtures.image("clock.jpg", exif: exif))
    #expect(metadata.gpsTimestamp == expected)
}

// MARK: - Refusals

/// Files libvips must refuse, each with the words its reason should contain.
enum UnreadableFile: String, CaseIterable, Sendable {
    case empty, text, truncatedJPEG, numberMatrix, svg, directory, missing, trailingBrackets

    func create(in fixtures: Fixtures) throws -> String {
        switch self {
        case .empty:
            return try fixtures.write("empty.jpg", bytes: [])
        case .text:
            return try fixtures.write("notes.jpg", bytes: Array("Meeting notes, not a photo.\n".utf8))
        case .truncatedJPEG:
            let whole = try Data(contentsOf: URL(fileURLWithPath: fixtures.image("whole.jpg")))
            return try fixtures.write("truncated.jpg", bytes: Array(whole.prefix(20)))
        case .numberMatrix:
            return try fixtures.write("matrix.jpg", bytes: Array("2 2\n1 2\n3 4\n".utf8))
        case .svg:
            let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#
            return try fixtures.write("drawing.svg", bytes: Array(svg.utf8))
        case .directory:
            let path = fixtures.path("folder.jpg")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            return path
        case .missing:
            return fixtures.path("missing.jpg")
        case .trailingBrackets:
            _ = try fixtures.image("photo.jpg")  // what libvips would open instead, reading "[shrink=2]" as options
            return try fixtures.write("photo.jpg[shrink=2]", bytes: [])
        }
    }

    var reasonMentions: String {
        switch self {
        case .empty, .text: "is not a known file format"
        case .truncatedJPEG: "Premature end of JPEG file"
        case .numberMatrix: "matrixload, which is not a photo format"
        case .svg: "svgload: operation is blocked"  // untrusted loaders stay blocked
        case .directory: "is a directory"
        case .missing: "does not exist"
        case .trailingBrackets: "ending in \"]\""
        }
    }
}

@Test(arguments: UnreadableFile.allCases)
func aFileThatIsNotALoadablePhotoIsUnreadableWithAReason(file: UnreadableFile) throws {
    let fixtures = try Fixtures()
    let path = try file.create(in: fixtures)
    let error = #expect(throws: ImagingError.self) { try reader.readMetadata(atPath: path) }
    guard case .unreadable(let reportedPath, let reason) = error else {
        Issue.record("expected .unreadable, got \(String(describing: error))")
        return
    }
    #expect(reportedPath == path)
    #expect(reason.contains(file.reasonMentions), "\(reason)")
    #expect(!reason.contains("\n") && reason == reason.trimmingCharacters(in: .whitespaces))
}

@Test func aPNGHeaderDeclaringTenBillionPixelsIsRefusedBeforeDecoding() throws {
    let fixtures = try Fixtures()
    let path = try fixtures.write("bomb.png", bytes: pngHeader(width: 100_000, height: 100_000))
    #expect(throws: ImagingError.tooLarge(path: path, width: 100_000, height: 100_000, limit: 200_000_000)) {
        try reader.readMetadata(atPath: path)
    }
}

@Test func theSameHandWrittenPNGHeaderIsReadWhenSmall() throws {
    let fixtures = try Fixtures()
    let path = try fixtures.write("small.png", bytes: pngHeader(width: 1_000, height: 1_000))
    let metadata = try reader.readMetadata(atPath: path)
    #expect((metadata.format, metadata.storedWidth, metadata.storedHeight) == ("pngload", 1_000, 1_000))
}

@Test func thePixelLimitIsInclusive() throws {
    let fixtures = try Fixtures()
    let path = try fixtures.image("limit.jpg", width: 120, height: 80)
    #expect(try ImageMetadataReader(maximumPixels: 9_600).readMetadata(atPath: path).storedWidth == 120)
    #expect(throws: ImagingError.tooLarge(path: path, width: 120, height: 80, limit: 9_599)) {
        try ImageMetadataReader(maximumPixels: 9_599).readMetadata(atPath: path)
    }
}

@Test(arguments: [
    (ImagingError.tooLarge(path: "/p/big.png", width: 100_000, height: 100_000, limit: 200_000_000),
     "image /p/big.png is 100000x100000 pixels, above the limit of 200000000 pixels; raise the maximum pixel count to import it"),
    (ImagingError.unreadable(path: "/p/a.jpg", reason: "VipsJpeg: Premature end of JPEG file"),
     "cannot read image /p/a.jpg: VipsJpeg: Premature end of JPEG file"),
])
func errorDescriptionsNameTheFileAndTheProblem(error: ImagingError, description: String) {
    #expect(error.description == description)
}

// MARK: - Concurrency

@Test func readsFromManyThreadsAtOnceMatchReadsOneAtATime() throws {
    let fixtures = try Fixtures()
    let paths = [
        try fixtures.image("full.jpg", exif: [
            "-Orientation#=8", "-DateTimeOriginal=2024:01:31 10:15:00", "-SubSecTimeOriginal=5",
            "-GPSLatitude=33.865", "-GPSLatitudeRef=S", "-GPSLongitude=151.2094", "-GPSLongitudeRef=E",
        ]),
        try fixtures.image("photo.png", width: 30, height: 20),
        try fixtures.image("photo.heic", width: 40, height: 30),
        try UnreadableFile.empty.create(in: fixtures),
        try UnreadableFile.truncatedJPEG.create(in: fixtures),
        try UnreadableFile.missing.create(in: fixtures),
    ]
    let expected = paths.map { path in Result { () throws(ImagingError) in try reader.readMetadata(atPath: path) } }

    let results = ResultsByThread()
    let threadCount = 16, readsPerThread = 24
    let finished = DispatchGroup()
    for thread in 0..<threadCount {
        finished.enter()
        Thread {
            for read in 0..<readsPerThread {
                let index = (thread + read) % paths.count
                let result = Result { () throws(ImagingError) in try reader.readMetadata(atPath: paths[index]) }
                results.append(index: index, result: result)
            }
            finished.leave()
        }.start()
    }
    finished.wait()

    let all = results.all
    #expect(all.count == threadCount * readsPerThread)
    for (index, result) in all {
        #expect(sameOutcome(result, expected[index]), "\(paths[index]): \(result)")
    }
}

/// Whether a read gave the expected metadata, or failed for the expected file with every line of the expected reason.
///
/// libvips keeps one error buffer per process, and renders run unlocked so that they run in parallel: a render that
/// fails in another test at the same moment may add its lines to a reason (as VipsRuntime.takeFailureMessage says).
private func sameOutcome(_ result: Result<ImageMetadata, ImagingError>, _ expected: Result<ImageMetadata, ImagingError>) -> Bool {
    guard case .failure(.unreadable(let path, let reason)) = result,
          case .failure(.unreadable(let expectedPath, let expectedReason)) = expected
    else { return result == expected }
    let lines = Set(reason.components(separatedBy: "; "))
    return path == expectedPath && expectedReason.components(separatedBy: "; ").allSatisfy(lines.contains)
}

private final class ResultsByThread: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [(Int, Result<ImageMetadata, ImagingError>)] = []

    func append(index: Int, result: Result<ImageMetadata, ImagingError>) {
        lock.withLock { results.append((index, result)) }
    }

    var all: [(Int, Result<ImageMetadata, ImagingError>)] {
        lock.withLock { results }
    }
}

// MARK: - Helpers

private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
                 _ fraction: Double = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    return calendar.date(from: components)!.addingTimeInterval(fraction)
}

/// The file at `path` read into memory, as an import reads a still.
private func contents(of path: String) throws -> EncodedBuffer {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    return EncodedBuffer(count: bytes.count) { $0.copyBytes(from: bytes) }
}

@Test(arguments: ["photo.jpg", "photo.png", "photo.webp", "photo.heic", "photo.avif"])
func aFileReadIntoMemoryGivesWhatTheFileGives(name: String) throws {
    let fixtures = try Fixtures()
    let path = try fixtures.image(name, exif: [
        "-DateTimeOriginal=2022:11:05 07:08:09", "-OffsetTimeOriginal=+05:45", "-Orientation#=6", "-Make=Canon",
        "-GPSLatitude=27.7172", "-GPSLatitudeRef=N", "-GPSLongitude=85.324", "-GPSLongitudeRef=E",
    ])
    let fromFile = try reader.readMetadata(atPath: path)
    #expect(try reader.readMetadata(of: contents(of: path), atPath: path) == fromFile)
    #expect(fromFile.dateTimeOriginal != nil && fromFile.camera.make == "Canon")
}

@Test func bytesInMemoryThatAreNoPhotoOrDeclareTooManyPixelsAreRefused() throws {
    let fixtures = try Fixtures()
    let bomb = try fixtures.write("bomb.png", bytes: pngHeader(width: 100_000, height: 100_000))
    #expect(throws: ImagingError.tooLarge(path: bomb, width: 100_000, height: 100_000, limit: 200_000_000)) {
        try reader.readMetadata(of: contents(of: bomb), atPath: bomb)
    }
    let text = try fixtures.write("notes.jpg", bytes: Array("not a photo".utf8))
    #expect(throws: ImagingError.self) { try reader.readMetadata(of: contents(of: text), atPath: text) }
}
