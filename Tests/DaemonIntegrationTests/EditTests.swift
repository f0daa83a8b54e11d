import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Varlink

/// Edits kept beside the original (CONTRACT §9): rendered by the daemon or by the caller, shown in every image of
/// the asset, resumable, reverted, and never touching the original.
@Suite(.serialized)
struct EditTests {
    /// A daemon holding one marked 300×200 photo (stored turned, EXIF orientation 6) imported by reference.
    static func markedLibrary(extraConfig: String = "") async throws -> (library: PopulatedDaemon, id: String, original: String) {
        let daemon = try DaemonProcess(extraConfig: extraConfig)
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let original = try MarkedPhotos.write(at: photos.file("marked.jpg"), width: 300, height: 200, orientation: 6)
        let client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let id = try #require(try await client.importFiles([original], mode: .reference).files.first?.assetId)
        let library = PopulatedDaemon(daemon: daemon, client: client, connection: try await daemon.connect(), assetIds: [id],
                                      photos: photos)
        return (library, id, original)
    }

    static func asset(_ id: String, in library: PopulatedDaemon) async throws -> Asset {
        try #require(try await library.client.fetchAssets(matching: AssetQuery(ids: [id], includeTrashed: true)).assets.first)
    }

    static func corners(of id: String, in library: PopulatedDaemon, version: ImageVersion = .current,
                        size: ImageSize? = nil) async throws -> (MarkedPhotos.Corners, ImageResult) {
        let image = try await library.client.requestImage(RequestImageParameters(
            assetId: id, targetSize: size, resizeMode: .exact, deliveryMode: .highQuality, version: version))
        return (try MarkedPhotos.corners(of: image.path), image)
    }

    @Test func aBasicEditIsRenderedShownEverywhereAndReverted() async throws {
        let (library, id, original) = try await Self.markedLibrary()
        let originalHash = try runTool("/usr/bin/sha256sum", [original]).output
        let observer = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        var events = observer.observe(assetQueries: ["all": AssetQuery()]).makeAsyncIterator()
        _ = try await events.next()
        // A grid thumbnail of the original is cached before the edit: the edit must replace it.
        let (thumbnailBefore, _) = try await Self.corners(of: id, in: library, size: ImageSize(width: 64, height: 64))
        #expect(thumbnailBefore == .upright)

        let before = try await Self.asset(id, in: library)
        _ = try await library.change { $0.editAsset(id, basic: BasicAdjustment(rotate: 90)) }
        let event = try #require(try await events.next())
        #expect(event.objects == [ObjectChange(id: id, kind: .asset, change: .changed, contentChanged: true)])

        let edited = try await Self.asset(id, in: library)
        #expect(edited.hasAdjustments)
        #expect((edited.pixelWidth, edited.pixelHeight) == (200, 300))
        #expect(try #require(edited.modificationDate) > (before.modificationDate ?? before.addedDate))
        let turned = MarkedPhotos.Corners(topLeft: .grey, topRight: .red, bottomLeft: .grey)
        let (current, full) = try await Self.corners(of: id, in: library)
        #expect(current == turned)
        #expect(full.size == (width: 200, height: 300))
        let (thumbnail, small) = try await Self.corners(of: id, in: library, size: ImageSize(width: 64, height: 64))
        #expect(thumbnail == turned)
        #expect(small.size == (width: 43, height: 64))
        let (unadjusted, whole) = try await Self.corners(of: id, in: library, version: .unadjusted)
        #expect(unadjusted == .upright)
        #expect(whole.size == (width: 300, height: 200))

        let currentFile = try await library.client.requestImageData(for: id)
        #expect(currentFile.path.hasPrefix(library.daemon.libraryPath + "/edits/"))
        #expect(currentFile.mimeType == "image/jpeg" && currentFile.orientation == 1)
        #expect(currentFile.originalFilename == "FullSizeRender.jpg")
        #expect(try await library.client.requestImageData(for: id, version: .original).path == original)
        #expect(try await library.client.requestImageData(for: id, version: .unadjusted).path == original)
        #expect(try runTool("/usr/bin/sha256sum", [original]).output == originalHash)

        // A second edit starts from the original again and replaces the first one's file.
        _ = try await library.change { $0.editAsset(id, basic: BasicAdjustment(rotate: 90, flipHorizontal: true)) }
        _ = try await events.next()
        #expect(try await Self.corners(of: id, in: library).0 == MarkedPhotos.Corners(topLeft: .red, topRight: .grey, bottomLeft: .green))
        #expect(!FileManager.default.fileExists(atPath: currentFile.path))

        let secondFile = try await library.client.requestImageData(for: id).path
        _ = try await library.change { $0.revertAsset(id) }
        let revert = try #require(try await events.next())
        #expect(revert.objects == [ObjectChange(id: id, kind: .asset, change: .changed, contentChanged: true)])
        let reverted = try await Self.asset(id, in: library)
        #expect(!reverted.hasAdjustments)
        #expect((reverted.pixelWidth, reverted.pixelHeight) == (300, 200))
        #expect(try await Self.corners(of: id, in: library, size: ImageSize(width: 64, height: 64)).0 == .upright)
        #expect(try await library.client.requestImageData(for: id).path == original)
        #expect(!FileManager.default.fileExists(atPath: secondFile))
        #expect(try runTool("/usr/bin/sha256sum", [original]).output == originalHash)
        await observer.close()
        try await library.daemon.stop()
    }

    @Test func cropAndExposureAreAppliedInLinearLight() async throws {
        let (library, id, _) = try await Self.markedLibrary()
        let crop = NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5)
        _ = try await library.change { $0.editAsset(id, basic: BasicAdjustment(crop: crop, exposure: 1)) }
        let image = try await library.client.requestImage(RequestImageParameters(assetId: id, deliveryMode: .highQuality))
        #expect(image.size == (width: 150, height: 100))
        #expect(try MarkedPhotos.corners(of: image.path).topLeft == .red)
        // Mid grey (128) one stop brighter in linear light: 0.216 × 2 = 0.432, which is 174 in sRGB.
        let grey = try ImageProbe.pixel(of: image.path, x: 75, y: 90)
        #expect(grey.allSatisfy { abs($0 - 174) <= 3 }, "\(grey)")
        let asset = try await Self.asset(id, in: library)
        #expect((asset.pixelWidth, asset.pixelHeight) == (150, 100))
        try await library.daemon.stop()
    }

    @Test func aProgramsOwnEditIsKeptAndResumedByThoseWhoCanHandleIt() async throws {
        let (library, id, original) = try await Self.markedLibrary()
        let rendered = library.photos.file("rendered.png")
        try runTool("/usr/bin/vips", ["black", rendered, "40", "30", "--bands", "3"])
        let adjustment = Adjustment(formatIdentifier: "com.example.filters", formatVersion: "2.1",
                                    data: Data(#"{"filter":"noir"}"#.utf8).base64EncodedString())
        _ = try await library.change { $0.editAsset(id, renderedPath: rendered, adjustment: adjustment) }
        let asset = try await Self.asset(id, in: library)
        #expect(asset.hasAdjustments && (asset.pixelWidth, asset.pixelHeight) == (40, 30))
        let kept = try await library.client.requestImageData(for: id)
        #expect(kept.mimeType == "image/png" && kept.path != rendered && kept.path.hasPrefix(library.daemon.libraryPath))

        let stranger = try await library.client.requestContentEditingInput(for: id)
        #expect(stranger.fullSizeImagePath == kept.path)
        #expect(stranger.adjustment == nil && stranger.baseVersion == .current && stranger.currentAdjustment == adjustment)
        let format = AdjustmentFormat(formatIdentifier: "com.example.filters", formatVersion: "2.1")
        let author = try await library.client.requestContentEditingInput(for: id, canHandle: [format])
        #expect(author.fullSizeImagePath == original && author.orientation == 6 && author.mimeType == "image/jpeg")
        #expect(author.adjustment == adjustment && author.baseVersion == .original && author.mediaType == .image)
        let otherVersion = AdjustmentFormat(formatIdentifier: "com.example.filters", formatVersion: "3")
        #expect(try await library.client.requestContentEditingInput(for: id, canHandle: [otherVersion]).baseVersion == .current)
        try await library.daemon.stop()
    }

    @Test func editsSurviveTrashRestoreAndRestartAndGoWithThePurge() async throws {
        let (library, id, original) = try await Self.markedLibrary()
        _ = try await library.change { $0.editAsset(id, basic: BasicAdjustment(rotate: 180)) }
        let editFile = try await library.client.requestImageData(for: id).path
        _ = try await library.change { $0.deleteAssets([id]) }
        _ = try await library.change { $0.restoreAssets([id]) }
        #expect(try await Self.asset(id, in: library).hasAdjustments)
        try await library.daemon.kill9()
        try await library.daemon.start()
        let client = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        let image = try await client.requestImage(RequestImageParameters(assetId: id, deliveryMode: .highQuality))
        #expect(try MarkedPhotos.corners(of: image.path) == MarkedPhotos.Corners(topLeft: .grey, topRight: .grey, bottomLeft: .green))
        var purge = PhotoLibrary.ChangeBuilder()
        purge.deleteAssets([id], permanently: true)
        _ = try await client.performChanges(purge)
        try await eventually { !FileManager.default.fileExists(atPath: editFile) }
        #expect(FileManager.default.fileExists(atPath: original), "a referenced original stays on disk")
        await client.close()
        try await library.daemon.stop()
    }

    /// A kill between the copy of an edit into the store and its commit leaves the old state, and the copy goes.
    @Test func anEditInterruptedBeforeItsCommitLeavesNothingBehind() async throws {
        let (library, id, _) = try await Self.markedLibrary()
        try await library.daemon.stop()
        let store = library.daemon.libraryPath
        let orphan = store + "/edits/\(id.prefix(2))/\(id).jpg"
        try FileManager.default.createDirectory(atPath: (orphan as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("half an edit".utf8).write(to: URL(fileURLWithPath: store + "/incoming/crash.importing"))
        try runTool("/bin/ln", [store + "/incoming/crash.importing", orphan])
        try orphan.write(toFile: store + "/incoming/crash.target", atomically: true, encoding: .utf8)
        try await library.daemon.start()
        let client = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        #expect(!FileManager.default.fileExists(atPath: orphan))
        #expect(try await client.fetchAssets().assets.first?.hasAdjustments == false)
        await client.close()
        try await library.daemon.stop()
    }

    @Test func badEditsAreRefusedWithAReasonAndChangeNothing() async throws {
        let (library, id, original) = try await Self.markedLibrary(extraConfig: "[images]\nmax_pixels = 100000\n")
        let files = library.photos
        let video = files.file("clip.mp4")
        try runTool("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1",
                                        "-pix_fmt", "yuv420p", video])
        let text = files.file("notes.jpg")
        try "not a picture".write(toFile: text, atomically: true, encoding: .utf8)
        let bomb = files.file("bomb.png")
        try runTool("/usr/bin/vips", ["black", bomb, "400", "400"])
        let custom = Adjustment(formatIdentifier: "com.example", formatVersion: "1", data: "")
        func basic(_ json: String) -> Adjustment {
            Adjustment(formatIdentifier: "io.photolibd.basic", formatVersion: "1", data: Data(json.utf8).base64EncodedString())
        }
        let refusals: [(PhotoLibrary.ChangeBuilder, String)] = [
            (edit { $0.editAsset(id, renderedPath: files.file("missing.jpg"), adjustment: custom) }, "cannot read"),
            (edit { $0.editAsset(id, renderedPath: text, adjustment: custom) }, "not a photo"),
            (edit { $0.editAsset(id, renderedPath: video, adjustment: custom) }, "not a photo"),
            (edit { $0.editAsset(id, renderedPath: bomb, adjustment: custom) }, "pixels"),
            (edit { $0.editAsset(id, renderedPath: original, adjustment: Adjustment(
                formatIdentifier: "com.example", formatVersion: "1",
                data: Data(count: Adjustment.maximumDataSize + 1).base64EncodedString())) }, "1 MiB"),
            (edit { $0.editAsset(id, renderedPath: original, adjustment: Adjustment(
                formatIdentifier: "com.example", formatVersion: "1", data: "not base64!")) }, "base64"),
            (edit { $0.editAsset(id, renderedPath: original, adjustment: basic(#"{"rotate":45}"#)) }, "rotate"),
            (edit { $0.editAsset(id, renderedPath: original, adjustment: basic(#"{"saturation":1}"#)) }, "saturation"),
            (edit { $0.editAsset(id, renderedPath: original, adjustment: basic(#"{"crop":{"x":0.5,"y":0,"width":0.8,"height":1}}"#)) },
             "crop"),
        ]
        for (changes, reason) in refusals {
            try await library.expectRefusal(changes, "InvalidChange", index: 0)
            do {
                _ = try await library.client.performChanges(changes)
            } catch {
                let message = error.varlinkError?.parameters["reason"]?.stringValue ?? ""
                #expect(message.contains(reason), "\(message) should say \(reason)")
            }
        }
        // Only the basic format is rendered by the daemon.
        await #expect {
            try await library.performChanges([[
                "op": "editAsset", "target": .string(id),
                "adjustment": ["formatIdentifier": "com.example", "formatVersion": "1", "data": ""],
            ]])
        } throws: { error in
            let error = error as? VarlinkError
            return error?.name == "io.photolibd.Library.InvalidChange"
                && error?.parameters["reason"]?.stringValue?.contains("renderedPath") == true
        }
        // A video and a trashed photo cannot be edited.
        let videoId = try #require(try await library.client.importFiles([video]).files.first?.assetId)
        try await library.expectRefusal(edit { $0.editAsset(videoId, basic: BasicAdjustment(rotate: 90)) }, "InvalidChange", index: 0)
        _ = try await library.change { $0.deleteAssets([id]) }
        try await library.expectRefusal(edit { $0.editAsset(id, basic: BasicAdjustment(rotate: 90)) }, "InvalidChange", index: 0)
        try await library.expectRefusal(edit { $0.editAsset("no-such-asset", basic: BasicAdjustment(rotate: 90)) }, "NotFound",
                                        index: 0)
        let stray = (try? FileManager.default.subpathsOfDirectory(atPath: library.daemon.libraryPath + "/edits")) ?? []
        #expect(stray.filter { $0.contains(".") }.isEmpty, "no edit file stays behind: \(stray)")
        try await library.daemon.stop()
    }

    @Test func anOfflinePhotoIsEditedOnlyOnceItsSourceIsBack() async throws {
        let parent = try TemporaryDirectory()
        let root = parent.file("share")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let photo = try MediaFixtures.writeVariants(0..<1, in: root)[0]
        let before = try Data(contentsOf: URL(fileURLWithPath: photo))
        let library = try await WatchedLibrary.start(sources: [(root, "reference")])
        try await library.waitUntil("the photo is imported") { try await library.assets().count == 1 }
        let id = try #require(try await library.assets().first?.id)
        let turn = edit { $0.editAsset(id, basic: BasicAdjustment(rotate: 90)) }

        try FileManager.default.moveItem(atPath: root, toPath: parent.file("unmounted"))
        try await library.waitUntil("the source is offline") { try await library.sources().first?.state == "offline" }
        do {
            _ = try await library.client.performChanges(turn)
            Issue.record("an offline photo was edited")
        } catch {
            #expect(error.varlinkError?.name == "io.photolibd.Library.InvalidChange")
            #expect(error.varlinkError?.parameters["reason"]?.stringValue?.contains("offline") == true, "\(error)")
        }
        #expect(try await library.assets().first?.hasAdjustments == false)

        try FileManager.default.moveItem(atPath: parent.file("unmounted"), toPath: root)
        try await library.waitUntil("the source is back") { try await library.sources().first?.offlineAssetCount == 0 }
        _ = try await library.client.performChanges(turn)
        #expect(try await library.assets().first?.hasAdjustments == true)
        // A reference source's original stays as it was.
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == before)
        await library.client.close()
    }

    private func edit(_ build: (inout PhotoLibrary.ChangeBuilder) -> Void) -> PhotoLibrary.ChangeBuilder {
        var changes = PhotoLibrary.ChangeBuilder()
        build(&changes)
        return changes
    }
}

extension EditTests {
    @Test func photolibEditsShowsAndRevertsAPhoto() async throws {
        let (library, id, original) = try await Self.markedLibrary()
        func photolib(_ arguments: [String], checked: Bool = true) throws -> ToolResult {
            try runTool(DaemonProcess.productsDirectory + "/photolib", ["--socket", library.daemon.socketPath] + arguments,
                        checked: checked)
        }
        _ = try photolib(["edit", id, "--crop", "0,0,0.5,1", "--rotate", "90"])
        let edited = try await Self.asset(id, in: library)
        #expect(edited.hasAdjustments && (edited.pixelWidth, edited.pixelHeight) == (200, 150))
        let info = try photolib(["info", id]).output
        #expect(info.contains("edited"))
        #expect(info.contains(#"io.photolibd.basic 1: {"crop":{"height":1,"width":0.5,"x":0,"y":0},"rotate":90}"#), "\(info)")
        #expect(info.contains("edit: " + library.daemon.libraryPath + "/edits/"))

        let refused = try photolib(["edit", id, "--rotate", "45"], checked: false)
        #expect(refused.status == 64 && refused.errors.contains("90, 180 or 270"))
        let outside = try photolib(["edit", id, "--crop", "0.5,0,0.8,1"], checked: false)
        #expect(outside.status == 64 && outside.errors.contains("within the photo"))
        let nothing = try photolib(["edit", id], checked: false)
        #expect(nothing.status == 64)

        _ = try photolib(["revert", id])
        #expect(try await Self.asset(id, in: library).hasAdjustments == false)
        #expect(try photolib(["info", id]).output.contains("not edited"))
        #expect(try await library.client.requestImageData(for: id).path == original)
        try await library.daemon.stop()
    }
}
