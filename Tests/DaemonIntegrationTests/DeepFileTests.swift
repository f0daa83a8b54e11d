import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// Files nested 100,000 deep in a watched folder (a sidecar, a Canon CRW, a CRW named as a JPEG, a HEIC) reach no parser that
/// would recurse through them: the daemon imports the photo beside them, logs what it could not read, and serves on.
@Suite(.serialized)
struct DeepFileTests {
    @Test func aSidecarAndPhotosNestedDeepLeaveTheDaemonServing() async throws {
        let depth = 100_000
        let watched = try TemporaryDirectory()
        try ImageFixtures.image(at: watched.file("IMG_1.jpg"), exif: ["-XMP-dc:Title=Embedded"])
        let list = NestedFixtures.nested("<rdf:Bag><rdf:li>", "x", "</rdf:li></rdf:Bag>", depth: depth)
        try XMPText.write(NestedFixtures.sidecar("<dc:subject>\(list)</dc:subject>"), to: watched.file("IMG_1.jpg.xmp"))
        let crw = Data(NestedFixtures.canonRaw(depth: depth))
        try crw.write(to: URL(fileURLWithPath: watched.file("IMG_2.crw")))
        try crw.write(to: URL(fileURLWithPath: watched.file("IMG_3.jpg")))
        let heic = NestedFixtures.isoMedia(container: "meta", lead: [0, 0, 0, 0], depth: depth)
        try Data(heic).write(to: URL(fileURLWithPath: watched.file("IMG_4.heic")))
        let library = try await WatchedLibrary.start(sources: [(watched.path, "reference")])
        try await library.waitUntil("every file was taken or refused") {
            let status = try await library.status()
            return status.imported + status.failed >= 4
        }
        let photo = try #require(try await library.asset(named: "IMG_1.jpg"))
        #expect(photo.annotations == Annotations(title: "Embedded"))
        #expect(library.daemon.log().contains(watched.file("IMG_1.jpg.xmp")))
        let other = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        #expect(try await other.fetchAssets(matching: AssetQuery()).assets.contains { $0.id == photo.id })
        await other.close()
        await library.client.close()
        try await library.daemon.stop()
    }
}
