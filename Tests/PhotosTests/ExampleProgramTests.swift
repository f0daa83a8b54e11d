import Foundation
import Photos
import Testing
import TestSupport

extension PhotosModuleTests {
    /// The AssetsLibrary example picks a group and a photo from its arguments and writes the full-size image.
    @Test func thePhotoPickerExampleExportsThePickedPhoto() async throws {
        let daemon = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        _ = try PhotosDaemon.importAssets(try PhotosDaemon.photos(2, in: directory, year: 2008, width: 200))
        let output = directory.file("picked.jpg")
        let run = try runTool(DaemonProcess.productsDirectory + "/photo-picker", ["1", "1", output],
                              environment: ["PHOTOLIBD_SOCKET": daemon.socketPath])
        #expect(run.output.hasPrefix("1. Library ("), "\(run.output)")
        #expect(run.output.contains("Wrote "))
        let written = try ImageProbe.size(of: output)
        #expect(written.width == 200 && written.height == 64)
        let outOfRange = try runTool(DaemonProcess.productsDirectory + "/photo-picker", ["999"],
                                     environment: ["PHOTOLIBD_SOCKET": daemon.socketPath], checked: false)
        #expect(outOfRange.status == 64 && outOfRange.errors.contains("must be a number from 1 to"))
    }

    /// Given a number of seconds, the PhotoKit example shows the library and stops by itself (photos added while it
    /// runs: `theLiveGalleryExamplePrintsEachPhotoOnceInOrderWhenRedirected`).
    @Test func theLiveGalleryExampleStopsAfterTheSecondsItIsGiven() async throws {
        let daemon = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        _ = try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory, year: 2005))
        let run = try runTool(DaemonProcess.productsDirectory + "/live-gallery", ["1"],
                              environment: ["PHOTOLIBD_SOCKET": daemon.socketPath])
        #expect(run.output.contains("photos and videos, newest first") && run.output.contains("  [0] "), "\(run.output)")
        #expect(!run.output.contains("no thumbnail") && run.errors.isEmpty, "\(run.output)\(run.errors)")
    }
}

extension PhotosModuleTests {
    /// The PhotoKit picker lists the albums with their key assets, shows an album's grid, and exports the picked
    /// originals and each picked video again at 720p.
    @Test func thePhotoKitPickerExampleExportsOriginalsAndA720pVideo() async throws {
        let daemon = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let photo = try PhotosDaemon.photos(1, in: directory, year: 2009)[0]
        let clip = URL(fileURLWithPath: try VideoFixtures.clip(at: directory.file("picked.mov"), width: 1920, height: 1080,
                                                                seconds: 1, codec: "libx265"))
        let title = "Picker \(UUID().uuidString.prefix(8))"
        try PHPhotoLibrary.shared().performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            let created = [PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo)!,
                           PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: clip)!]
            album.addAssets(created.compactMap(\.placeholderForCreatedAsset) as NSArray)
        }
        let picker = DaemonProcess.productsDirectory + "/photokit-picker"
        let environment = ["PHOTOLIBD_SOCKET": daemon.socketPath]
        let albums = try runTool(picker, [], environment: environment).output.split(separator: "\n")
        #expect(albums.first?.hasPrefix("1. Library (") == true, "\(albums)")
        let line = try #require(albums.first { $0.contains(title) })
        #expect(line.contains("(2) — key asset"))
        let number = String(line.prefix { $0 != "." })

        let grid = try runTool(picker, [number], environment: environment).output
        #expect(grid.contains("picked.mov  video 1 s  [") && grid.contains("thumbnail]"), "\(grid)")

        let output = try TemporaryDirectory()
        let run = try runTool(picker, [number, "1,2", output.path], environment: environment)
        #expect(run.output.components(separatedBy: "Wrote ").count == 4, "\(run.output)\(run.errors)")
        let video = try VideoFixtures.probe(output.file("picked-720p.mp4"))
        #expect(video.videoCodec == "h264" && video.width == 1280 && video.height == 720)
        #expect(FileManager.default.contents(atPath: output.file("picked.mov")) == (try Data(contentsOf: clip)))

        let wrong = try runTool(picker, [number, "9", output.path], environment: environment, checked: false)
        #expect(wrong.status == 64 && wrong.errors.contains("must be a number from 1 to 2"))
    }
}
