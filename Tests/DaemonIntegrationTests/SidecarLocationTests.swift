import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// A sidecar's GPS (CONTRACT §14, §15): darktable's, digiKam's and Lightroom's `exif:GPSLatitude` and
/// `exif:GPSLongitude` become the asset's location, winning over the file's own, with the place named in the same
/// change; a malformed position is ignored; `set-location` writes the position back into the sidecar.
@Suite(.serialized)
struct SidecarLocationTests {
    /// A darktable sidecar with `rating` stars and the position `latitude`, `longitude` as darktable writes it.
    static func sidecar(rating: Int = 2, latitude: String, longitude: String) -> String {
        SidecarFixtures.darktable(rating: rating).replacingOccurrences(
            of: #"darktable:xmp_version="5""#,
            with: #"darktable:xmp_version="5" xmlns:exif="http://ns.adobe.com/exif/1.0/" "#
                + #"exif:GPSLatitude="\#(latitude)" exif:GPSLongitude="\#(longitude)""#)
    }

    private func photolib(_ daemon: DaemonProcess, _ arguments: [String]) throws -> ToolResult {
        try runTool(
            DaemonProcess.productsDirectory + "/photolib", ["--socket", daemon.socketPath] + arguments,
            environment: ProcessInfo.processInfo.environment.filter { $0.key != "COLUMNS" })
    }

    @Test func aSidecarsGPSLocatesAPhotoWithoutAndAnEditMovesItsPlace() async throws {
        let watched = try TemporaryDirectory()
        try ImageFixtures.image(at: watched.file("IMG_1.jpg"))
        let sidecar = watched.file("IMG_1.jpg.xmp")
        try XMPText.write(Self.sidecar(latitude: "47,22.614N", longitude: "8,32.502E"), to: sidecar)
        let library = try await WatchedLibrary.start(sources: [(watched.path, "reference")])
        try await library.waitUntil("the photo is in the library") {
            try await library.asset(named: "IMG_1.jpg") != nil
        }
        let asset = try #require(try await library.asset(named: "IMG_1.jpg"))
        let location = try #require(asset.location)
        #expect(abs(location.latitude - 47.3769) < 1e-6 && abs(location.longitude - 8.5417) < 1e-6)
        #expect(asset.place?.city == "Zürich" && asset.place?.country == "Switzerland")
        #expect(asset.annotations.rating == 2)

        // darktable geotags it again, at the Eiffel Tower: one change, with the new place, for observers and history.
        let before = try await library.client.fetchAssets(matching: AssetQuery(ids: [asset.id]))
        let observer = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        var events = observer.observe(assetQueries: ["one": AssetQuery(ids: [asset.id])]).makeAsyncIterator()
        _ = try #require(try await events.next())
        try runTool(
            "/usr/bin/exiftool",
            ["-q", "-overwrite_original", "-XMP-exif:GPSLatitude=48.8584", "-XMP-exif:GPSLongitude=2.2945", sidecar])
        let event = try #require(try await events.next())
        // Its moment changes with it: the moment's location names follow its assets' places.
        #expect(
            event.objects.filter { $0.kind == .asset }
                == [ObjectChange(id: asset.id, kind: .asset, change: .changed, contentChanged: false)])
        #expect(event.results.first?.changedIds == [asset.id])
        let moved = try #require(try await library.asset(named: "IMG_1.jpg"))
        #expect(moved.place?.city == "Paris" && moved.place?.region == "Île-de-France")
        #expect(moved.location.map { abs($0.latitude - 48.8584) < 1e-6 && abs($0.longitude - 2.2945) < 1e-6 } == true)
        let changes = try await library.client.fetchPersistentChanges(since: before.token).changes
        #expect(changes.flatMap(\.updatedAssetIds) == [asset.id])

        // A malformed position is ignored (and logged); the rest of the sidecar is still read.
        try XMPText.write(Self.sidecar(rating: 5, latitude: "north-ish", longitude: "8,32.502E"), to: sidecar)
        try await library.waitUntil("the new rating is read") {
            try await library.asset(named: "IMG_1.jpg")?.annotations.rating == 5
        }
        let kept = try #require(try await library.asset(named: "IMG_1.jpg"))
        #expect(kept.location == moved.location && kept.place == moved.place)
        #expect(library.daemon.log().contains("exif:GPSLatitude"))

        // A sidecar without GPS leaves the location alone.
        try XMPText.write(SidecarFixtures.darktable(rating: 1), to: sidecar)
        try await library.waitUntil("the sidecar without GPS is read") {
            try await library.asset(named: "IMG_1.jpg")?.annotations.rating == 1
        }
        #expect(try await library.asset(named: "IMG_1.jpg")?.place?.city == "Paris")
        await observer.close()
        await library.client.close()
        try await library.daemon.stop()
    }

    @Test func aSidecarsGPSWinsOverTheFilesOwnAtImport() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let path = try PlaceTests.photo("moscow", latitude: 55.7558, longitude: 37.6173, in: files)
        try XMPText.write(Self.sidecar(latitude: "47,22,36.84N", longitude: "8,32,30.12E"), to: path + ".xmp")
        let other = try PlaceTests.photo("suva", latitude: -18.1248, longitude: 178.4501, in: files)
        try XMPText.write(SidecarFixtures.darktable(rating: 4), to: other + ".xmp")
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await library.importFiles([path, other]).files.compactMap(\.assetId)
        try #require(ids.count == 2)
        let assets = Dictionary(uniqueKeysWithValues: try await library.fetchAssets().assets.map { ($0.id, $0) })
        #expect(assets[ids[0]]?.place?.city == "Zürich")
        #expect(assets[ids[1]]?.place?.city == "Suva" && assets[ids[1]]?.annotations.rating == 4)
        await library.close()
        try await daemon.stop()
    }

    @Test func setLocationWritesThePositionIntoTheSidecarAndClearingRemovesIt() async throws {
        let watched = try TemporaryDirectory()
        try ImageFixtures.image(at: watched.file("IMG_2.jpg"))
        let sidecar = watched.file("IMG_2.jpg.xmp")
        try XMPText.write(SidecarFixtures.darktable(rating: 3), to: sidecar)
        let library = try await WatchedLibrary.start(sources: [(watched.path, "reference")])
        try await library.waitUntil("the photo is in the library") {
            try await library.asset(named: "IMG_2.jpg") != nil
        }
        let id = try #require(try await library.asset(named: "IMG_2.jpg")).id

        let moved = try photolib(library.daemon, ["set-location", id, "--to", "-33.8688,151.2093"]).output
        #expect(moved.contains("Sydney"), "\(moved)")
        let written = try await eventually(timeout: .seconds(30)) { () -> String? in
            let read = try XMPText.exiftool(sidecar, ["-n", "-XMP-exif:GPSLatitude", "-XMP-exif:GPSLongitude"])
            return read.contains("GPSLatitude") ? read : nil
        }
        #expect(
            written?.contains("GPSLatitude: -33.8688") == true && written?.contains("GPSLongitude: 151.2093") == true,
            "\(written ?? "")")
        // Another tool's tags stay.
        #expect(try XMPText.exiftool(sidecar, ["-XMP-darktable:all"]).contains("HistoryOperation: exposure"))

        _ = try photolib(library.daemon, ["set-location", id, "--clear"])
        let removed = try await eventually(timeout: .seconds(30)) {
            try !XMPText.exiftool(sidecar, ["-XMP-exif:GPSLatitude"]).contains("GPSLatitude")
        }
        #expect(removed)
        #expect(try XMPText.exiftool(sidecar, ["-XMP-xmp:Rating"]).contains("Rating: 3"))
        // The library's own write is not read back as a change: the location stays cleared.
        #expect(try await library.asset(named: "IMG_2.jpg")?.location == nil)
        await library.client.close()
        try await library.daemon.stop()
    }
}
