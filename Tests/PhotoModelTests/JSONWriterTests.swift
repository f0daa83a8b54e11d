import Foundation
import Testing
@testable import PhotoModel

struct JSONWriterTests {
    static let assets = [
        Asset(id: "a\"1\\", mediaType: .image, mediaSubtypes: [.photoPanorama, .photoHDR], pixelWidth: 4000, pixelHeight: 1000,
              creationDate: Timestamp(rfc3339: "2024-01-31T10:15:00.250+01:00"), creationDateSource: .exif,
              modificationDate: nil, addedDate: Timestamp(secondsSince1970: 1_700_000_000.5),
              location: Location(latitude: -33.8568, longitude: 151.2153, altitude: -2.5), duration: 0,
              isFavorite: true, burstIdentifier: "burst\n1", originalFilename: "naïve \u{1} café.jpg", fileSize: 1 << 40,
              orientation: 6,
              resources: [AssetResource(type: .photo, originalFilename: "x.jpg", mimeType: "image/jpeg", fileSize: 5, path: "/p/x.jpg"),
                          AssetResource(type: .alternatePhoto, originalFilename: "x.dng", mimeType: "image/x-adobe-dng", fileSize: 9, path: nil)]),
        Asset(id: "b", mediaType: .video, pixelWidth: 1920, pixelHeight: 1080, creationDate: nil, modificationDate: nil,
              addedDate: Timestamp(secondsSince1970: 0), location: Location(latitude: 1, longitude: 2), duration: 12.75,
              originalFilename: "clip.mov", fileSize: 0),
    ]

    @Test(arguments: assets)
    func writesWhatTheCodableConformanceWrites(asset: Asset) throws {
        var writer = JSONWriter()
        asset.write(to: &writer)
        let written = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? NSDictionary
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(asset)) as? NSDictionary
        #expect(written == encoded)
        #expect(try JSONDecoder().decode(Asset.self, from: Data(writer.bytes)) == asset)
    }

    @Test func separatesArrayElementsAndMembers() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("list"); writer.beginArray(); writer.int(1); writer.null(); writer.double(.nan); writer.endArray()
        writer.key("flag"); writer.bool(false)
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"list":[1,null,null],"flag":false}"#)
    }
}
