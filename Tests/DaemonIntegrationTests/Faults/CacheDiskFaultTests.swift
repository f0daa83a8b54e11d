import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// The thumbnail cache's disk turns read-only: imports go on without it, an image request says why it has no image,
/// and once the disk takes writes the same request is answered and cached, without a restart.
@Suite(.serialized)
struct CacheDiskFaultTests {
    @Test(.enabled(if: FaultFileSystem.canMount, "mounting a FUSE file system needs root and /dev/fuse"))
    func aReadOnlyCacheHoldsNoImportBackAndImagesComeBackWithTheDisk() async throws {
        let daemon = try DaemonProcess()
        let disk = try FaultFileSystem(at: daemon.directory + "/cache")
        try await daemon.start()
        let library = try await ImageLibrary(daemon: daemon, photos: try TemporaryDirectory())
        let first = try MarkedPhotos.write(
            at: library.photos.file("before.jpg"), width: 800, height: 600, orientation: 1)
        let before = try await library.importByReference([first])[0]
        _ = try await library.requestImage(.target(before, 200, 200))

        disk.setReadOnly(true)
        let second = try MarkedPhotos.write(
            at: library.photos.file("during.jpg"), width: 800, height: 600, orientation: 1)
        let during = try await library.importByReference([second])[0]
        await #expect(throws: PhotoLibraryError.self) { try await library.requestImage(.target(during, 300, 300)) }
        #expect(daemon.isRunning)

        disk.setReadOnly(false)
        let image = try await library.requestImage(.target(during, 300, 300))
        #expect(FileManager.default.fileExists(atPath: image.path))
        #expect(library.renditionFiles.contains(image.path), "the image is cached again")
        await library.client.close()
        try await daemon.stop()
    }
}
