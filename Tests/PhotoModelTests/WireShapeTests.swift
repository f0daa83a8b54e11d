import Foundation
import Testing
@testable import PhotoModel

struct WireShapeTests {
    @Test func assetsWriteEveryPinnedFieldWithExplicitNulls() throws {
        let asset = Asset(id: "a1", mediaType: .image, mediaSubtypes: [.photoPanorama], pixelWidth: 4000, pixelHeight: 1000,
                          creationDate: nil, modificationDate: nil, addedDate: Timestamp(secondsSince1970: 0),
                          location: nil, originalFilename: "pano.jpg", fileSize: 1234)
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(asset)) as? [String: Any])
        let pinned = ["id", "mediaType", "mediaSubtypes", "pixelWidth", "pixelHeight", "creationDate", "modificationDate",
                      "addedDate", "location", "duration", "isFavorite", "isHidden", "isTrashed", "burstIdentifier",
                      "originalFilename", "fileSize", "orientation"]
        for key in pinned { #expect(object.keys.contains(key), "missing \(key)") }
        #expect(object["creationDate"] is NSNull)
        #expect(object["mediaSubtypes"] as? [String] == ["photoPanorama"])
        #expect(object["addedDate"] as? String == "1970-01-01T00:00:00+00:00")
        #expect(object["resources"] == nil)
    }

    @Test func assetsRoundTrip() throws {
        let asset = Asset(id: "a1", mediaType: .video, pixelWidth: 1920, pixelHeight: 1080,
                          creationDate: Timestamp(rfc3339: "2024-01-31T10:15:00+01:00"), modificationDate: nil,
                          addedDate: Timestamp(secondsSince1970: 5), location: Location(latitude: -33.9, longitude: 151.2),
                          duration: 12.5, isFavorite: true, originalFilename: "clip.mov", fileSize: 99)
        #expect(try JSONDecoder().decode(Asset.self, from: JSONEncoder().encode(asset)) == asset)
    }

    @Test func changeTokensRoundTripAndRejectForeignText() throws {
        let token = ChangeToken(libraryId: "lib", generation: 42)
        #expect(ChangeToken(token.description) == token)
        for text in ["", "v1:lib", "v2:lib:1", "v1::1", "v1:lib:-1", "v1:lib:x"] {
            #expect(ChangeToken(text) == nil, "\(text)")
        }
    }

    @Test func mediaTypesMatchPhotoKitNumbers() {
        #expect(MediaType(photoKitValue: 1) == .image)
        #expect(MediaType(photoKitValue: 2) == .video)
        #expect(MediaType(photoKitValue: 3) == .audio)
        #expect(MediaType(photoKitValue: 9) == nil)
    }
}
