import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Varlink

/// `io.photolibd.Images` against the real daemon, libvips and cache.
@Suite(.serialized)
struct ImageRequestTests {
    // MARK: Orientation and sizes

    @Test func everyOrientationComesOutUprightInLandscapeAndPortrait() async throws {
        let library = try await ImageLibrary.start()
        var expected: [(path: String, width: Int, height: Int)] = []
        for orientation in 1...8 {
            for (width, height) in [(120, 80), (80, 120)] {
                let path = library.photos.file("o\(orientation)-\(width)x\(height).jpg")
                try MarkedPhotos.write(at: path, width: width, height: height, orientation: orientation)
                expected.append((path, width, height))
            }
        }
        let ids = try await library.importByReference(expected.map(\.path))
        for (id, photo) in zip(ids, expected) {
            let whole = try await library.requestImage(RequestImageParameters(assetId: id))
            #expect(whole.size == (photo.width, photo.height), "\(photo.path)")
            let small = try await library.requestImage(.target(id, 60, 60, resizeMode: .exact))
            #expect(small.size == (photo.width / 2, photo.height / 2), "\(photo.path)")
            for reply in [whole, small] {
                let path = reply.path
                #expect(try MarkedPhotos.corners(of: path) == .upright, "\(photo.path)")
                #expect(try ImageProbe.size(of: path) == reply.size)
                #expect(reply.mimeType == "image/jpeg" && reply.isDegraded == false)
            }
        }
    }

    @Test(arguments: [
        (nil, .aspectFit, .fast, 300, 200),
        (ImageSize(width: 100, height: 100), .aspectFit, .none, 300, 200),
        (ImageSize(width: 100, height: 100), .aspectFit, .exact, 100, 67),
        (ImageSize(width: 100, height: 100), .aspectFill, .exact, 150, 100),
        (ImageSize(width: 250, height: 50), .aspectFit, .exact, 75, 50),
        // Never larger than the photo, in every mode (CONTRACT §10).
        (ImageSize(width: 600, height: 600), .aspectFit, .exact, 300, 200),
        (ImageSize(width: 600, height: 600), .aspectFill, .exact, 300, 200),
        (ImageSize(width: 2000, height: 2000), .aspectFit, .fast, 300, 200),
        (ImageSize(width: -1, height: -1), .aspectFit, .fast, 300, 200),
    ] as [(ImageSize?, ImageContentMode, ImageResizeMode, Int, Int)])
    func eachResizeModeGivesTheSizeTheContractPromises(targetSize: ImageSize?, contentMode: ImageContentMode,
                                                      resizeMode: ImageResizeMode, width: Int, height: Int) async throws {
        let library = try await ImageLibrary.start()
        let photo = try MarkedPhotos.write(at: library.photos.file("photo.jpg"), width: 300, height: 200, orientation: 6)
        let id = try #require(try await library.importByReference([photo]).first)
        let reply = try await library.requestImage(RequestImageParameters(assetId: id, targetSize: targetSize,
                                                                          contentMode: contentMode, resizeMode: resizeMode))
        #expect(reply.size == (width, height))
        #expect(try MarkedPhotos.corners(of: reply.path) == .upright)
    }

    @Test(arguments: ["aspectFit", "aspectFill"])
    func theFastModeIsCloseToTheTargetAndNeverSmaller(contentMode: String) async throws {
        let library = try await ImageLibrary.start()
        let photo = try MarkedPhotos.write(at: library.photos.file("photo.jpg"), width: 300, height: 200, orientation: 8)
        let id = try #require(try await library.importByReference([photo]).first)
        let exact = try await library.requestImage(.target(id, 100, 100, contentMode: ImageContentMode(rawValue: contentMode)!, resizeMode: .exact)).size
        let fast = try await library.requestImage(.target(id, 100, 100, contentMode: ImageContentMode(rawValue: contentMode)!)).size
        #expect(fast.width >= exact.width && fast.height >= exact.height)
        #expect(min(fast.width, fast.height) <= 2 * min(exact.width, exact.height))
    }

    @Test func aCropIsTakenFromTheUprightPhoto() async throws {
        let library = try await ImageLibrary.start()
        let photo = try MarkedPhotos.write(at: library.photos.file("photo.jpg"), width: 300, height: 200, orientation: 5)
        let id = try #require(try await library.importByReference([photo]).first)
        let reply = try await library.requestImage(.target(id, 120, 120, resizeMode: .exact, crop: NormalizedCropRect(x: 0.5, y: 0, width: 0.5, height: 0.5)))
        #expect(reply.size == (120, 80))
        let corners = try MarkedPhotos.corners(of: reply.path)
        #expect(corners == MarkedPhotos.Corners(topLeft: .grey, topRight: .green, bottomLeft: .grey))
    }

    // MARK: Delivery

    @Test func anUncachedPhotoStreamsADegradedImageThenTheFinalOneAndACachedOneOnlyTheFinal() async throws {
        let library = try await ImageLibrary.start()
        let thumbnail = try MarkedPhotos.write(at: library.photos.file("thumb.jpg"), width: 160, height: 120, orientation: 1)
        let photo = try MarkedPhotos.write(at: library.photos.file("camera.jpg"), width: 1600, height: 1200, orientation: 1,
                                           exif: ["-ThumbnailImage<=\(thumbnail)", "-Make=Camera"])
        let id = try #require(try await library.importByReference([photo]).first)
        let request: RequestImageParameters = .target(id, 800, 800, resizeMode: .exact)

        let first = try await library.streamImage(request)
        #expect(first.map(\.isDegraded) == [true, false])
        #expect(Set(first.map(\.requestId)).count == 1)
        let degraded = try #require(first.first?.path)
        #expect(try MarkedPhotos.corners(of: degraded) == .upright)
        let final = try #require(first.last?.size)
        #expect(final == (800, 600))

        let again = try await library.streamImage(request)
        #expect(again.map { $0.isDegraded } == [false])
        #expect(again.first?.path == first.last?.path)
        #expect(again.first?.requestId != first.first?.requestId)
    }

    @Test func highQualityAndPlainCallsGiveOneFinalImageAndFastMayGiveADegradedOne() async throws {
        let library = try await ImageLibrary.start()
        let thumbnail = try MarkedPhotos.write(at: library.photos.file("thumb.jpg"), width: 160, height: 120, orientation: 1)
        let photo = try MarkedPhotos.write(at: library.photos.file("camera.jpg"), width: 1600, height: 1200, orientation: 1,
                                           exif: ["-ThumbnailImage<=\(thumbnail)"])
        let id = try #require(try await library.importByReference([photo]).first)
        let highQuality = try await library.streamImage(.target(id, 700, 700, resizeMode: .exact, deliveryMode: .highQuality))
        #expect(highQuality.map { $0.isDegraded } == [false])
        let plain = try await library.requestImage(.target(id, 600, 600, resizeMode: .exact))
        #expect(plain.isDegraded == false && plain.size == (600, 450))
        let fast = try await library.streamImage(.target(id, 500, 500, resizeMode: .exact, deliveryMode: .fast))
        #expect(fast.count == 1 && fast[0].isDegraded == true)
    }

    @Test func identicalRequestsAtOnceGetTheSameImage() async throws {
        let library = try await ImageLibrary.start()
        let photo = try MarkedPhotos.write(at: library.photos.file("photo.png"), width: 2400, height: 1600, orientation: 1)
        let id = try #require(try await library.importByReference([photo]).first)
        let paths = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let client = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
                    let image = try await client.requestImage(.target(id, 900, 900, resizeMode: .exact))
                    await client.close()
                    return image.path
                }
            }
            return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        #expect(paths.count == 1 && paths.first! != nil)
    }

    // MARK: Bad requests and bad files

    @Test func badRequestsNameTheParameter() async throws {
        let library = try await ImageLibrary.start()
        let photo = try MarkedPhotos.write(at: library.photos.file("photo.jpg"), width: 120, height: 80, orientation: 1)
        let id = try #require(try await library.importByReference([photo]).first)
        let cases: [([String: JSONValue], String)] = [
            (["targetWidth": 0, "targetHeight": 0], "targetWidth"),
            (["targetWidth": 100], "targetHeight"),
            (["targetWidth": 100, "targetHeight": -3], "targetHeight"),
            (["normalizedCropRect": ["x": 0.5, "y": 0, "width": 0.6, "height": 0.5], "resizeMode": "exact",
              "targetWidth": 10, "targetHeight": 10], "normalizedCropRect"),
            (["normalizedCropRect": ["x": -0.1, "y": 0, "width": 0.5, "height": 0.5]], "normalizedCropRect"),
            (["contentMode": "stretch"], "contentMode"),
            (["deliveryMode": "eventually"], "deliveryMode"),
            (["version": "edited"], "version"),
        ]
        // Options no typed client could send: raw calls.
        let connection = try await library.daemon.connect()
        for (options, parameter) in cases {
            let error = await varlinkError {
                try await connection.call("io.photolibd.Images.RequestImage",
                                          parameters: .object(options.merging(["assetId": .string(id)]) { $1 }))
            }
            #expect(error == .invalidParameter(parameter), "\(options)")
        }
        await connection.close()
        let missing = await varlinkError { try await library.requestImage(RequestImageParameters(assetId: "no-such-asset")) }
        #expect(missing == VarlinkError("io.photolibd.Images.NotFound", parameters: ["id": "no-such-asset"]))
        #expect(try await library.requestImage(RequestImageParameters(assetId: id)).width == 120)
    }

    @Test func brokenTruncatedAndHugeFilesAreReportedAndTheDaemonKeepsServing() async throws {
        let library = try await ImageLibrary.start()
        let names = ["garbage.jpg", "truncated.jpg", "bomb.jpg", "good.jpg"]
        let paths = try names.map { try MarkedPhotos.write(at: library.photos.file($0), width: 300, height: 200, orientation: 1) }
        let ids = try await library.importByReference(paths)
        // Files rewritten after import, as a reference source's files can be.
        try Data("no photo here".utf8).write(to: URL(fileURLWithPath: paths[0]))
        let whole = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: paths[1]))
        try jpegDeclaring(width: 50_000, height: 50_000, basedOn: paths[3]).write(to: URL(fileURLWithPath: paths[2]))

        let garbage = await varlinkError { try await library.requestImage(.target(ids[0], 100, 100)) }
        #expect(garbage?.name == "io.photolibd.Images.ImageUnavailable" && garbage?.parameters["assetId"] == .string(ids[0]))
        #expect(garbage?.parameters["reason"]?.stringValue?.contains("not a known file format") == true, "\(String(describing: garbage))")
        let truncated = try await library.requestImage(.target(ids[1], 150, 150, resizeMode: .exact))
        #expect(truncated.size == (150, 100))
        let bomb = await varlinkError { try await library.requestImage(.target(ids[2], 100, 100)) }
        #expect(bomb?.name == "io.photolibd.Images.ImageUnavailable")
        #expect(bomb?.parameters["reason"]?.stringValue?.contains("50000x50000 pixels, above the limit") == true, "\(String(describing: bomb))")
        #expect(try await library.requestImage(RequestImageParameters(assetId: ids[3])).width == 300)
        #expect(library.daemon.isRunning)
    }

    @Test func thePixelLimitComesFromTheConfiguration() async throws {
        let library = try await ImageLibrary.start()
        let photo = try MarkedPhotos.write(at: library.photos.file("photo.jpg"), width: 300, height: 200, orientation: 1)
        let id = try #require(try await library.importByReference([photo]).first)
        try await library.daemon.stop()
        let config = try String(contentsOfFile: library.daemon.configPath, encoding: .utf8)
        try (config + "\n[images]\nmax_pixels = 50000\n").write(toFile: library.daemon.configPath, atomically: true, encoding: .utf8)
        try await library.daemon.start()
        let restarted = try await ImageLibrary(daemon: library.daemon, photos: library.photos)
        let error = await varlinkError { try await restarted.requestImage(RequestImageParameters(assetId: id)) }
        #expect(error?.parameters["reason"]?.stringValue?.contains("300x200 pixels, above the limit of 50000 pixels") == true,
                "\(String(describing: error))")
    }

    @Test func anAssetDeletedWhileItsImageIsMadeLeavesNoRenditionBehind() async throws {
        let library = try await ImageLibrary.start()
        let big = try MarkedPhotos.write(at: library.photos.file("big.png"), width: 4000, height: 3000, orientation: 1)
        let other = try MarkedPhotos.write(at: library.photos.file("other.jpg"), width: 300, height: 200, orientation: 1)
        let ids = try await library.importByReference([big, other])
        let request = Task {
            let client = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
            return try await client.requestImage(RequestImageParameters(assetId: ids[0]))
        }
        try await library.purge([ids[0]])
        switch await request.result {
        case .success(let reply):
            #expect(reply.width == 4000)
        case .failure(let error as PhotoLibraryError):
            let name = error.varlinkError?.name ?? ""
            #expect(["io.photolibd.Images.NotFound", "io.photolibd.Images.ImageUnavailable"].contains(name), "\(error)")
        case .failure(let error):
            Issue.record("unexpected \(error)")
        }
        let kept = try await library.requestImage(RequestImageParameters(assetId: ids[1])).path
        // The big photo's renditions are 4000 (whole) and 341 (grid) pixels wide; the other's 300 and 384.
        try await library.waitUntil("only the other photo's renditions remain") {
            try library.renditionFiles.allSatisfy { [300, 384].contains(try ImageProbe.size(of: $0).width) }
        }
        #expect(FileManager.default.fileExists(atPath: kept))
        let gone = await varlinkError { try await library.requestImage(RequestImageParameters(assetId: ids[0])) }
        #expect(gone?.name == "io.photolibd.Images.NotFound")
    }

    // MARK: The cache

    @Test func renditionsSurviveARestartAndADamagedOneIsRemade() async throws {
        let library = try await ImageLibrary.start()
        let paths = try ["kept.jpg", "damaged.jpg"].map {
            try MarkedPhotos.write(at: library.photos.file($0), width: 600, height: 400, orientation: 1)
        }
        let ids = try await library.importByReference(paths)
        let requests = ids.map { RequestImageParameters.target($0, 300, 300, resizeMode: .exact) }
        let kept = try await library.requestImage(requests[0])
        let damaged = try await library.requestImage(requests[1]).path
        try await library.daemon.stop()
        let size = try Data(contentsOf: URL(fileURLWithPath: damaged)).count
        try Data(repeating: 0x42, count: size).write(to: URL(fileURLWithPath: damaged))

        try await library.daemon.start()
        let restarted = try await ImageLibrary(daemon: library.daemon, photos: library.photos)
        let again = try await restarted.streamImage(requests[0])
        #expect(again.count == 1 && again[0].path == kept.path && again[0].isDegraded == false)
        let remade = try await restarted.requestImage(requests[1])
        #expect(remade.path == damaged)
        #expect(try MarkedPhotos.corners(of: damaged) == .upright)
    }

    @Test func aPhotoRewrittenInPlaceGetsNewImages() async throws {
        let library = try await ImageLibrary.start()
        let photo = try MarkedPhotos.write(at: library.photos.file("photo.jpg"), width: 300, height: 200, orientation: 1)
        let id = try #require(try await library.importByReference([photo]).first)
        #expect(try await library.requestImage(RequestImageParameters(assetId: id)).size == (300, 200))
        try MarkedPhotos.write(at: library.photos.file("edited.jpg"), width: 200, height: 300, orientation: 1)
        try FileManager.default.removeItem(atPath: photo)
        try FileManager.default.moveItem(atPath: library.photos.file("edited.jpg"), toPath: photo)
        #expect(try await library.requestImage(RequestImageParameters(assetId: id)).size == (200, 300))
    }

    @Test func purgingAnAssetRemovesItsRenditions() async throws {
        let library = try await ImageLibrary.start()
        let photo = try MarkedPhotos.write(at: library.photos.file("photo.jpg"), width: 300, height: 200, orientation: 1)
        let id = try #require(try await library.importByReference([photo]).first)
        let path = try await library.requestImage(.target(id, 50, 50)).path
        try await library.purge([id])
        try await library.waitUntil("the renditions are gone") { library.renditionFiles.isEmpty }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func theCacheKeepsToItsBudgetDroppingTheLeastRecentlyUsed() async throws {
        let library = try await ImageLibrary.start(extraConfig: "[images]\ncache_limit_mb = 1\n")
        let paths = try (0..<4).map { number in
            let path = library.photos.file("noise\(number).jpg")
            try runTool("/usr/bin/vips", ["gaussnoise", path + ".v", "900", "900"])
            try runTool("/usr/bin/vips", ["copy", path + ".v", path + "[Q=95]"])
            return path
        }
        let ids = try await library.importByReference(paths)
        var served: [String] = []
        for id in ids {
            served.append(try await library.requestImage(RequestImageParameters(assetId: id)).path)
            let total = try library.renditionFiles.reduce(0) {
                $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int ?? 0)
            }
            #expect(total <= 1 << 20 || library.renditionFiles.count == 1, "\(total) bytes")
        }
        #expect(!FileManager.default.fileExists(atPath: served[0]))
        #expect(FileManager.default.fileExists(atPath: served[3]))
    }

    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a small tmpfs needs root"))
    func aFullCacheDiskIsReportedAndTheDaemonKeepsServing() async throws {
        let daemon = try DaemonProcess()
        let disk = try SmallFileSystem(bytes: 2 << 20, at: daemon.directory + "/cache")
        try await daemon.start()
        let library = try await ImageLibrary(daemon: daemon, photos: try TemporaryDirectory())
        let paths = try ["a.jpg", "b.jpg"].map {
            try MarkedPhotos.write(at: library.photos.file($0), width: 1200, height: 800, orientation: 1)
        }
        let ids = try await library.importByReference(paths)
        _ = try await library.requestImage(.target(ids[0], 300, 300))
        disk.fill()
        do {
            _ = try await library.requestImage(RequestImageParameters(assetId: ids[1]))
        } catch let error as PhotoLibraryError {
            #expect(error.varlinkError?.name == "io.photolibd.Images.ImageUnavailable")
            #expect(error.varlinkError?.parameters["reason"]?.stringValue?.contains("is full") == true, "\(error)")
        }
        #expect(daemon.isRunning)
        disk.empty()
        #expect(try await library.requestImage(RequestImageParameters(assetId: ids[1])).width == 1200)
        #expect(FileManager.default.fileExists(atPath: try await library.requestImage(.target(ids[0], 300, 300)).path))
        try await daemon.stop()
        withExtendedLifetime(disk) {}
    }

    // MARK: Background work

    @Test func theGridImageOfAnImportIsMadeInTheBackgroundAndCachingWarmsLargerOnes() async throws {
        let library = try await ImageLibrary.start()
        let paths = try (0..<3).map {
            try MarkedPhotos.write(at: library.photos.file("photo\($0).jpg"), width: 1600, height: 1200, orientation: 1)
        }
        let ids = try await library.importByReference(paths)
        try await library.waitUntil("the grid renditions are made") { library.renditionFiles.count == 3 }
        for id in ids {
            let grid = try await library.streamImage(.target(id, 256, 256, contentMode: .aspectFill))
            #expect(grid.count == 1 && grid[0].isDegraded == false && grid[0].size == (341, 256))
        }

        try await library.client.startCaching(ids, targetSize: ImageSize(width: 1000, height: 1000))
        try await library.waitUntil("the warm-ups are made") { library.renditionFiles.count == 6 }
        let warmed = try await library.streamImage(.target(ids[0], 1000, 1000))
        #expect(warmed.count == 1 && warmed[0].isDegraded == false)
        try await library.client.stopCaching()
    }

    @Test func aNewPhotosGridImageIsMadeFromTheBytesItsImportReadWithoutWaitingForTheLibraryToSettle() async throws {
        let library = try await ImageLibrary.start()
        let paths = try (0..<8).map {
            try MarkedPhotos.write(at: library.photos.file("photo\($0).jpg"), width: 1600, height: 1200, orientation: 6)
        }
        // An import every 200 ms: the library is never quiet for the second the warm-up of imports waits for.
        var madeMeanwhile = 0, ids: [String] = []
        for path in paths {
            ids += try await library.importByReference([path])
            try await Task.sleep(for: .milliseconds(200))
            madeMeanwhile = library.renditionFiles.count
        }
        #expect(madeMeanwhile >= paths.count / 2, "\(madeMeanwhile) of \(paths.count) grid images made during the imports")
        try await library.waitUntil("every grid rendition is made") { library.renditionFiles.count == paths.count }
        for id in ids {
            let grid = try await library.streamImage(.target(id, 256, 256, contentMode: .aspectFill))
            #expect(grid.count == 1 && grid[0].isDegraded == false && grid[0].size == (341, 256), "\(grid.map(\.size))")
            #expect(try MarkedPhotos.corners(of: grid[0].path) == .upright)
        }
    }

    @Test func aBatchOfPhotosTooBigToKeepInMemoryStillGetsEveryGridImageWithoutWaitingForTheLibraryToSettle() async throws {
        let library = try await ImageLibrary.start()
        // Three 30 MB photos (a small JPEG and the padding after its end, which decoders skip) in one call: the third
        // does not fit in the bytes a batch keeps for first renditions, so its rendition reads its file again.
        let padding = Data(count: 30 << 20)
        var changes = PhotoLibrary.ChangeBuilder()
        for index in 0..<3 {
            let path = try MarkedPhotos.write(at: library.photos.file("padded\(index).jpg"), width: 1600, height: 1200, orientation: 6)
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try file.seekToEnd()
            try file.write(contentsOf: padding)
            try file.close()
            _ = changes.createAsset(fromFile: path)
        }
        let created = Array(try await library.client.performChanges(changes).created.values)
        #expect(created.count == 3)
        // A photo's content changes every 200 ms: the library is never quiet for the second the warm-ups wait for.
        let changing = library.photos.file("changing.jpg")
        let photo = try Data(contentsOf: URL(fileURLWithPath: MarkedPhotos.write(at: changing, width: 320, height: 240, orientation: 1)))
        var madeMeanwhile = false
        for round in 0..<25 where !madeMeanwhile {
            try (photo + Data("round \(round)".utf8)).write(to: URL(fileURLWithPath: changing))
            _ = try await library.importByReference([changing])
            try await Task.sleep(for: .milliseconds(200))
            madeMeanwhile = created.allSatisfy(library.hasGridRendition)
        }
        #expect(madeMeanwhile, "grid images made: \(created.map(library.hasGridRendition))")
        for id in created {
            let grid = try await library.streamImage(.target(id, 256, 256, contentMode: .aspectFill))
            #expect(grid.count == 1 && grid[0].isDegraded == false && grid[0].size == (341, 256), "\(grid.map(\.size))")
        }
    }

    @Test func aClosedConnectionCancelsItsQueuedRequests() async throws {
        let library = try await ImageLibrary.start()
        let paths = try (0..<8).map {
            try MarkedPhotos.write(at: library.photos.file("big\($0).png"), width: 3000, height: 2000, orientation: 1)
        }
        let ids = try await library.importByReference(paths)
        try await library.waitUntil("the grid renditions are made") { library.renditionFiles.count == 8 }
        // Each call goes out whole, then its client hangs up at once.
        for id in ids {
            try RawVarlinkClient.sendAndHangUp(socketPath: library.daemon.socketPath, message: """
                {"method":"io.photolibd.Images.RequestImage","more":true,"parameters":{"assetId":"\(id)"}}
                """)
        }
        // Waits for the render threads: this request queues behind the runs already started.
        _ = try await library.requestImage(.target(ids[0], 64, 64, resizeMode: .exact))
        #expect(library.renditionFiles.count < 8 + 8 + 1, "\(library.renditionFiles.count) renditions")
        #expect(library.daemon.isRunning)
    }

    @Test func thumbnailsOfReferencedFilesGoWhereFileManagersLook() async throws {
        let thumbnails = try TemporaryDirectory()
        let library = try await ImageLibrary.start(extraConfig: "[images]\nfreedesktop_thumbnails = \"\(thumbnails.path)\"\n")
        let photo = try MarkedPhotos.write(at: library.photos.file("my photo.jpg"), width: 600, height: 400, orientation: 6)
        let id = try #require(try await library.importByReference([photo]).first)
        let uri = "file://" + photo.replacingOccurrences(of: " ", with: "%20")
        let name = try md5(uri)
        let large = thumbnails.path + "/large/\(name).png", normal = thumbnails.path + "/normal/\(name).png"
        try await library.waitUntil("the thumbnails are written") {
            FileManager.default.fileExists(atPath: large) && FileManager.default.fileExists(atPath: normal)
        }
        #expect(try ImageProbe.size(of: large) == (256, 171) && ImageProbe.size(of: normal) == (128, 85))
        #expect(try MarkedPhotos.corners(of: large) == .upright)
        let tags = try runTool("/usr/bin/exiftool", ["-s", "-s", "-s", "-ThumbURI", "-ThumbMTime", large]).output
            .split(separator: "\n").map(String.init)
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: photo)[.modificationDate] as? Date)
        #expect(tags == [uri, String(Int(modified.timeIntervalSince1970))])

        // They show the current version: an edit replaces them, a revert brings the original's back.
        var changes = PhotoLibrary.ChangeBuilder()
        changes.editAsset(id, basic: BasicAdjustment(rotate: 90))
        _ = try await library.client.performChanges(changes)
        try await library.waitUntil("the thumbnails show the edit") {
            (try? ImageProbe.size(of: large)) ?? (0, 0) == (171, 256) && (try? ImageProbe.size(of: normal)) ?? (0, 0) == (85, 128)
        }
        #expect(try MarkedPhotos.corners(of: large) == MarkedPhotos.Corners(topLeft: .grey, topRight: .red, bottomLeft: .grey))
        changes = PhotoLibrary.ChangeBuilder()
        changes.revertAsset(id)
        _ = try await library.client.performChanges(changes)
        try await library.waitUntil("the thumbnails show the original again") {
            (try? ImageProbe.size(of: large)) ?? (0, 0) == (256, 171)
        }
        #expect(try MarkedPhotos.corners(of: large) == .upright)
    }

    @Test func freedesktopThumbnailsFollowReferencedFilesTurnedOnRenamedAndDeleted() async throws {
        let pictures = try TemporaryDirectory(), thumbnails = try TemporaryDirectory()
        let photo = try MarkedPhotos.write(at: pictures.file("before.jpg"), width: 300, height: 200, orientation: 1)
        let daemon = try DaemonProcess(extraConfig: "[[source]]\npath = \"\(pictures.path)\"\nmode = \"reference\"\n")
        try await daemon.start()
        let client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        #expect(try await eventually { try await client.fetchAssets().count == 1 })
        func thumbnail(of path: String) throws -> String {
            thumbnails.path + "/large/" + (try md5("file://" + path)) + ".png"
        }
        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }

        // Turned on by a reload, for a file the library holds already.
        let config = try String(contentsOfFile: daemon.configPath, encoding: .utf8)
            + "\n[images]\nfreedesktop_thumbnails = \"\(thumbnails.path)\"\n"
        try config.write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
        daemon.send(SIGHUP)
        #expect(try await eventually { exists(try thumbnail(of: photo)) }, "\(daemon.log())")

        let renamed = pictures.file("after.jpg")
        #expect(rename(photo, renamed) == 0)
        let (before, after) = (try thumbnail(of: photo), try thumbnail(of: renamed))
        #expect(try await eventually { exists(after) && !exists(before) })
        #expect(unlink(renamed) == 0)
        #expect(try await eventually { !exists(after) })
        await client.close()
        try await daemon.stop()
    }

    // MARK: Videos

    @Test func aVideoGivesAnUprightPosterFrame() async throws {
        let library = try await ImageLibrary.start()
        let upright = library.photos.file("landscape.mp4"), clip = library.photos.file("clip.mp4")
        try runTool("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=3",
                                        "-pix_fmt", "yuv420p", upright])
        // Held upright: the stream is stored landscape with a quarter-turn display matrix.
        try runTool("/usr/bin/ffmpeg", ["-v", "error", "-i", upright, "-c", "copy", "-metadata:s:v:0", "rotate=90", clip])
        let id = try #require(try await library.importByReference([clip]).first)
        let poster = try await library.streamImage(.target(id, 100, 100, resizeMode: .exact))
        #expect(poster.count == 1 && poster[0].size == (75, 100) && poster[0].mimeType == "image/jpeg")
        #expect(try ImageProbe.size(of: poster[0].path) == (75, 100))
    }

    // MARK: Originals

    @Test func theOriginalFileIsReturnedUnchanged() async throws {
        let library = try await ImageLibrary.start()
        let photo = try MarkedPhotos.write(at: library.photos.file("IMG_0042.jpg"), width: 300, height: 200, orientation: 6)
        let id = try #require(try await library.importByReference([photo]).first)
        let reply = try await library.client.requestImageData(for: id)
        #expect(reply.path == photo && reply.mimeType == "image/jpeg")
        #expect(reply.orientation == 6 && reply.originalFilename == "IMG_0042.jpg")
        #expect(reply.fileSize == (try FileManager.default.attributesOfItem(atPath: photo)[.size] as? Int))
    }

    @Test func theCommandLineWritesThumbnailsAndExportsOriginals() async throws {
        let library = try await ImageLibrary.start()
        let photo = try MarkedPhotos.write(at: library.photos.file("IMG_0042.jpg"), width: 300, height: 200, orientation: 3)
        let id = try #require(try await library.importByReference([photo]).first)
        let output = try TemporaryDirectory()
        let photolib = DaemonProcess.productsDirectory + "/photolib"
        let written = try runTool(photolib, ["--socket", library.daemon.socketPath, "thumbnail", id,
                                             "--size", "256x256", "--mode", "fill", "-o", output.file("thumb.jpg")])
        // Filling 256×256 would take 384×256, more than the 300×200 photo has: it comes at its own size.
        #expect(written.output.contains("300x200"))
        #expect(try ImageProbe.size(of: output.file("thumb.jpg")) == (300, 200))
        #expect(try MarkedPhotos.corners(of: output.file("thumb.jpg")) == .upright)

        let exported = try runTool(photolib, ["--socket", library.daemon.socketPath, "export", id, id, "-o", output.path])
        #expect(exported.output.split(separator: "\n") == [output.file("IMG_0042.jpg"), output.file("IMG_0042 (1).jpg")].map { Substring($0) })
        #expect(FileManager.default.contents(atPath: output.file("IMG_0042.jpg")) == FileManager.default.contents(atPath: photo))

        let missing = try runTool(photolib, ["--socket", library.daemon.socketPath, "thumbnail", "no-such-asset", "-o",
                                             output.file("none.jpg")], checked: false)
        #expect(missing.status != 0 && missing.errors.contains("no-such-asset"))
    }
}

/// A baseline JPEG whose frame header declares `width`×`height` over the data of the JPEG at `path`.
private func jpegDeclaring(width: Int, height: Int, basedOn path: String) throws -> Data {
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let frame = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
    bytes.replaceSubrange(frame + 5..<frame + 9, with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
    return Data(bytes)
}

/// The MD5 of `text`, lowercase hex, by the real `md5sum`.
func md5(_ text: String) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("md5-\(UUID().uuidString)").path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    return String(try runTool("/usr/bin/md5sum", [file]).output.prefix(32))
}

/// Sends one varlink message over a plain socket, then closes it.
private enum RawVarlinkClient {
    static func sendAndHangUp(socketPath: String, message: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw DaemonError("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw DaemonError("cannot connect to \(socketPath)") }
        let bytes = Array(message.utf8) + [0]
        guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw DaemonError("short write")
        }
    }
}
