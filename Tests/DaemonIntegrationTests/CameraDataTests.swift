import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// The camera's own data (CONTRACT §10): read at import, searchable, and read after the fact for a library that
/// predates it.
@Suite(.serialized)
struct CameraDataTests {
    static let canonTags = ["-Make=Canon", "-Model=Canon EOS R5", "-LensModel=RF24-70mm F2.8 L IS USM", "-FNumber=2.8",
                            "-ExposureTime=1/125", "-ISO=400", "-FocalLength=50", "-FocalLengthIn35mmFormat=50"]
    static let canon = CameraData(make: "Canon", model: "Canon EOS R5", lensModel: "RF24-70mm F2.8 L IS USM", fNumber: 2.8,
                                  exposureTime: 0.008, iso: 400, focalLength: 50, focalLength35mm: 50)

    @Test func importedFilesCarryTheirCameraDataAndPredicatesFindThem() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let canon = try ImageFixtures.image(at: files.file("canon.jpg"), exif: Self.canonTags)
        let phone = try ImageFixtures.image(at: files.file("phone.jpg"), width: 90, exif: [
            "-Make=Apple", "-Model=iPhone 15 Pro", "-FNumber=1.78", "-ExposureTime=1/60", "-ISO=80", "-FocalLength=6.86",
        ])
        let plain = try ImageFixtures.image(at: files.file("plain.jpg"), width: 70)
        let movie = files.file("clip.mov")
        try runTool("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1",
                                        "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags",
                                        "-metadata", "com.apple.quicktime.make=Apple",
                                        "-metadata", "com.apple.quicktime.model=iPhone 15 Pro", movie])
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await library.importFiles([canon, phone, plain, movie]).files.compactMap(\.assetId)
        try #require(ids.count == 4)
        let assets = Dictionary(uniqueKeysWithValues: try await library.fetchAssets().assets.map { ($0.id, $0) })
        #expect(assets[ids[0]]?.camera == Self.canon)
        #expect(assets[ids[1]]?.camera.model == "iPhone 15 Pro" && assets[ids[1]]?.camera.lensModel == nil)
        #expect(assets[ids[2]]?.camera == CameraData())
        #expect(assets[ids[3]]?.camera == CameraData(make: "Apple", model: "iPhone 15 Pro"))

        func matching(_ predicate: String) async throws -> Set<String> {
            Set(try await library.fetchAllAssets(matching: AssetQuery(predicate: predicate)).assets.map(\.id))
        }
        #expect(try await matching("cameraModel == 'iPhone 15 Pro'") == [ids[1], ids[3]])
        #expect(try await matching("fNumber < 2 AND iso <= 100") == [ids[1]])
        #expect(try await matching("exposureTime <= 0.01 AND focalLength35mm == 50") == [ids[0]])
        #expect(try await matching("lensModel BEGINSWITH[c] 'rf'") == [ids[0]])
        #expect(try await matching("cameraMake == nil") == [ids[2]])
        let newestLens = try await library.fetchAssets(matching: AssetQuery(sort: [SortDescriptor(key: "focalLength", ascending: false)]))
        #expect(newestLens.assets.first?.id == ids[0])
        await library.close()
        try await daemon.stop()
    }

    /// A library from before camera data was kept: the columns are empty and unread. The daemon reads them in the
    /// background after start, announces each asset that gained data as changed, and imports nothing again.
    @Test func aLibraryFromBeforeGainsItsCameraDataInTheBackground() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let canon = try ImageFixtures.image(at: files.file("canon.jpg"), exif: Self.canonTags)
        let plain = try ImageFixtures.image(at: files.file("plain.jpg"), width: 70)
        var library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await library.importFiles([canon, plain]).files.compactMap(\.assetId)
        try #require(ids.count == 2)
        let before = try await library.fetchAssets(pageSize: 0).token
        await library.close()
        try await daemon.stop()

        try runTool("/usr/bin/sqlite3", [daemon.libraryPath + "/library.sqlite", """
            UPDATE asset SET cameraMake = NULL, cameraModel = NULL, lensModel = NULL, fNumber = NULL, exposureTime = NULL,
              iso = NULL, focalLength = NULL, focalLength35mm = NULL, cameraDataRead = 0;
            """])
        try await daemon.start()
        library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        var announced: [PersistentChange] = []
        try await eventually {
            announced = try await library.fetchPersistentChanges(since: before).changes
            return !announced.isEmpty
        }
        #expect(announced.flatMap(\.updatedAssetIds) == [ids[0]])
        #expect(announced.flatMap(\.insertedAssetIds).isEmpty)
        let assets = Dictionary(uniqueKeysWithValues: try await library.fetchAssets().assets.map { ($0.id, $0) })
        #expect(assets[ids[0]]?.camera == Self.canon)
        #expect(assets[ids[1]]?.camera == CameraData())
        let unread = try runTool("/usr/bin/sqlite3", [daemon.libraryPath + "/library.sqlite",
                                                      "SELECT count(*) FROM asset WHERE cameraDataRead = 0"]).output
        #expect(unread.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        await library.close()
        try await daemon.stop()
    }

    @Test func theFilesOwnMetadataComesInPhotoKitsGroupsAndTheCommandLineShowsItAll() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let photo = try ImageFixtures.image(at: files.file("canon.jpg"), exif: Self.canonTags + [
            "-DateTimeOriginal=2024:01:31 10:15:00", "-OffsetTimeOriginal=+01:00",
            "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
            "-IPTC:Keywords=tower", "-IPTC:Keywords=paris", "-XMP-dc:Title=Evening",
        ])
        let movie = files.file("clip.mov")
        try runTool("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1",
                                        "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags",
                                        "-metadata", "com.apple.quicktime.model=iPhone 15 Pro", movie])
        let referenced = try ImageFixtures.image(at: files.file("gone.jpg"), width: 50)
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await library.importFiles([photo, movie]).files.compactMap(\.assetId)
        let goneId = try #require(try await library.importFiles([referenced], mode: .reference).files.first?.assetId)
        try #require(ids.count == 2)

        let metadata = try await library.fetchAssetMetadata(for: ids[0])
        #expect(metadata.tiff["Make"] == "Canon" && metadata.tiff["Model"] == "Canon EOS R5")
        #expect(metadata.exif["FNumber"] == "2.8" && metadata.exif["ExposureTime"] == "0.008")
        #expect(metadata.exif["ISOSpeedRatings"] == "400" && metadata.exif["FocalLenIn35mmFilm"] == "50")
        #expect(metadata.exif["DateTimeOriginal"] == "2024:01:31 10:15:00" && metadata.exif["OffsetTimeOriginal"] == "+01:00")
        #expect(metadata.gps["LatitudeRef"] == "N" && metadata.gps["Latitude"].flatMap(Double.init).map { abs($0 - 48.8584) < 1e-4 } == true)
        #expect(metadata.iptc["Keywords"] == "tower, paris")
        #expect(metadata.xmp["dc:Title"] == "Evening")
        #expect(metadata.container == nil)
        let video = try await library.fetchAssetMetadata(for: ids[1])
        #expect(video.container?["Model"] == "iPhone 15 Pro", "\(video)")
        #expect(video.exif.isEmpty && video.tiff.isEmpty)

        try FileManager.default.removeItem(atPath: referenced)
        await #expect { try await library.fetchAssetMetadata(for: goneId) } throws: {
            ($0 as? PhotoLibraryError)?.varlinkError?.name == "io.photolibd.Library.MetadataUnavailable"
        }
        await #expect { try await library.fetchAssetMetadata(for: "no-such-asset") } throws: {
            ($0 as? PhotoLibraryError)?.code == .notFound
        }

        var changes = PhotoLibrary.ChangeBuilder()
        changes.addAssets([ids[0]], to: changes.createAlbum(title: "Paris"))
        changes.setFavorite(true, for: [ids[0]])
        _ = try await library.performChanges(changes)
        let photolib = DaemonProcess.productsDirectory + "/photolib"
        let shown = try runTool(photolib, ["--socket", daemon.socketPath, "info", ids[0]]).output
        for expected in ["created   2024-01-31 10:15:00 +01:00 (EXIF, with the camera's offset)",
                         "camera    Canon EOS R5, RF24-70mm F2.8 L IS USM, f/2.8, 1/125 s, ISO 400, 50 mm (50 mm in 35 mm)",
                         "location  48.858400, 2.294500", "place     Paris, Île-de-France, France",
                         "state     favorite, not edited", "Paris (album)",
                         "file      photo: " + daemon.libraryPath + "/originals/2024/01/", "iptc      Keywords = tower, paris"] {
            #expect(shown.contains(expected), "\(expected) in\n\(shown)")
        }
        let json = try runTool(photolib, ["--socket", daemon.socketPath, "info", "--json", ids[0]]).output
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect((object?["asset"] as? [String: Any])?["cameraModel"] as? String == "Canon EOS R5")
        #expect(((object?["metadata"] as? [String: Any])?["tiff"] as? [String: String])?["Make"] == "Canon")
        await library.close()
        try await daemon.stop()
    }
}
