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

    /// The PhotoKit example shows the library, then reports photos added while it runs.
    @Test func theLiveGalleryExampleShowsPhotosAddedWhileItRuns() async throws {
        let daemon = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let gallery = Task.detached {
            try runTool(DaemonProcess.productsDirectory + "/live-gallery", ["10"],
                        environment: ["PHOTOLIBD_SOCKET": daemon.socketPath])
        }
        // Photos newer than any other, added while the gallery runs (the first may come before it looks).
        for _ in 0..<3 {
            try await Task.sleep(for: .seconds(2))
            _ = try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory, year: 2030))
        }
        let run = try await gallery.value
        #expect(run.output.contains("photos and videos, newest first"))
        #expect(run.output.contains("Inserted at 0:"), "\(run.output)\(run.errors)")
        #expect(!run.output.contains("no thumbnail"))
    }
}
