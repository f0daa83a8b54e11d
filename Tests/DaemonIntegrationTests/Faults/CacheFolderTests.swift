import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// The cache is the daemon's to lose: a cache folder deleted under it (by hand, by a cleaner) is made again.
@Suite(.serialized)
struct CacheFolderTests {
    @Test func aCacheFolderDeletedUnderTheDaemonIsMadeAgainAndImagesKeepComing() async throws {
        let library = try await ImageLibrary.start()
        let paths = try ["a.jpg", "b.jpg"].map {
            try MarkedPhotos.write(at: library.photos.file($0), width: 800, height: 600, orientation: 1)
        }
        let ids = try await library.importByReference(paths)
        _ = try await library.requestImage(.target(ids[0], 200, 200))
        let cache = library.daemon.directory + "/cache"
        try FileManager.default.removeItem(atPath: cache)

        for id in ids {
            let image = try await library.requestImage(.target(id, 200, 200))
            #expect(FileManager.default.fileExists(atPath: image.path))
        }
        #expect(FileManager.default.fileExists(atPath: cache))
        let again = try await library.requestImage(.target(ids[1], 200, 200))
        #expect(FileManager.default.fileExists(atPath: again.path))
        #expect(library.daemon.log().components(separatedBy: "cache folder").count <= 2, "at most one log line")
        #expect(library.daemon.isRunning)
        try await library.daemon.stop()
    }
}
