import Foundation
import Photos
import TestSupport
import Testing

/// Moments name their places as Apple's do (CONTRACT §15), from photos whose GPS another tool wrote.
extension PhotosModuleTests {
    @Test func aMomentsLocalizedLocationNamesAreItsCitiesMostPhotographedFirst() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        // A day no other test of the shared daemon photographs.
        let positions = [(47.3769, 8.5417), (47.3771, 8.5420), (48.8584, 2.2945)]
        let urls = try positions.enumerated().map { index, position in
            let path = directory.file("moment-\(index).jpg")
            try ImageFixtures.image(
                at: path, width: 80 + index, height: 64,
                exif: [
                    "-DateTimeOriginal=1987:07:14 1\(index):00:00",
                    "-GPSLatitude=\(position.0)", "-GPSLatitudeRef=N", "-GPSLongitude=\(position.1)",
                    "-GPSLongitudeRef=E",
                ])
            return URL(fileURLWithPath: path)
        }
        let assets = try PhotosDaemon.importAssets(urls)
        try #require(assets.count == 3)
        let moments = PHAssetCollection.fetchAssetCollectionsContaining(assets[0], with: .moment, options: nil)
        let moment = try #require(moments.firstObject)
        #expect(moment.localizedLocationNames == ["Zürich", "Paris"])
        let album = PHAssetCollection.fetchAssetCollections(
            with: .smartAlbum, subtype: .smartAlbumUserLibrary, options: nil)
        #expect(album.firstObject?.localizedLocationNames == [])
    }
}
