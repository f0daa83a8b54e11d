import CompactJSON
import Foundation
import Testing
@testable import PhotoModel

struct AssetJSONTests {
    static let assets = [
        Asset(id: "a\"1\\", mediaType: .image, mediaSubtypes: [.photoPanorama, .photoHDR], pixelWidth: 4000, pixelHeight: 1000,
              creationDate: Timestamp(rfc3339: "2024-01-31T10:15:00.250+01:00"), creationDateSource: .exif,
              modificationDate: nil, addedDate: Timestamp(secondsSince1970: 1_700_000_000.5),
              location: Location(latitude: -33.8568, longitude: 151.2153, altitude: -2.5), duration: 0,
              isFavorite: true, burstIdentifier: "burst\n1", originalFilename: "naïve \u{1} café.jpg", fileSize: 1 << 40,
              orientation: 6,
              resources: [AssetResource(type: .photo, originalFilename: "x.jpg", mimeType: "image/jpeg", fileSize: 5, path: "/p/x.jpg"),
                          AssetResource(type: .alternatePhoto, originalFilename: "x.dng", mimeType: "image/x-adobe-dng", fileSize: 9, path: nil)],
              camera: CameraData(make: "Canon", model: "EOS \"R5\"", lensModel: "RF 50mm", fNumber: 1.8, exposureTime: 0.008,
                                 iso: 100, focalLength: 50, focalLength35mm: 50)),
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

    @Test(arguments: assets)
    func readsWhatTheCodableConformanceReads(asset: Asset) throws {
        var adjusted = asset
        adjusted.hasAdjustments = true
        for asset in [asset, adjusted] {
            var encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(asset)) as! [String: Any]
            encoded["unknownKey"] = ["nested": [1, 2]]
            let data = try JSONSerialization.data(withJSONObject: encoded)
            let read = try data.withUnsafeBytes { try JSONReader.read(Asset.self, from: $0) }
            #expect(read == (try JSONDecoder().decode(Asset.self, from: data)))
            #expect(read == asset)
        }
    }

    @Test func readsTheDefaultsOfAbsentOptionalKeys() throws {
        let minimal = Data(#"{"id":"m","mediaType":"image","pixelWidth":1,"pixelHeight":2,"addedDate":"2020-01-01T00:00:00Z","isFavorite":false,"isHidden":false,"isTrashed":false,"originalFilename":"m.jpg","fileSize":3}"#.utf8)
        let read = try minimal.withUnsafeBytes { try JSONReader.read(Asset.self, from: $0) }
        #expect(read == (try JSONDecoder().decode(Asset.self, from: minimal)))
        #expect(read.orientation == 1 && read.mediaSubtypes.isEmpty && read.resources == nil)
        let lacking = Data(#"{"id":"m","mediaType":"image"}"#.utf8)
        #expect(throws: JSONReadError.self) { try lacking.withUnsafeBytes { try JSONReader.read(Asset.self, from: $0) } }
        let unknownType = Data(#"{"id":"m","mediaType":"hologram"}"#.utf8)
        #expect(throws: JSONReadError.self) { try unknownType.withUnsafeBytes { try JSONReader.read(Asset.self, from: $0) } }
    }

    @Test func readsResultChangesAsTheCodableConformanceDoes() throws {
        let changes = [
            FetchResultChange.full(name: "all", ids: ["a", "b"], incremental: nil),
            FetchResultChange.difference(name: "d", from: ["a", "b", "c", "d"], to: ["d", "e", "a", "c"], changed: ["c"]),
        ]
        for change in changes {
            let data = try JSONEncoder().encode(change)
            #expect(try data.withUnsafeBytes { try JSONReader.read(FetchResultChange.self, from: $0) } == change)
        }
    }

    static let queries = [
        AssetQuery(),
        AssetQuery(collection: "c", ids: ["a", "b\"q"], mediaTypes: [.image, .video], burstIdentifier: "b",
                   predicate: "pixelWidth > 10", sort: [SortDescriptor(key: "creationDate", ascending: false)],
                   includeHidden: true, includeTrashed: false, includeAllBurstAssets: true, limit: 7),
    ]

    @Test func readsQueriesAsTheCodableConformanceDoes() throws {
        var texts = try Self.queries.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        texts += [#"{"ids":null,"limit":null,"sort":[{"key":"k"}],"other":[1]}"#, #"{"sort":[{"key":"k","ascending":null}]}"#]
        for text in texts {
            let data = Data(text.utf8)
            let read = try data.withUnsafeBytes { try JSONReader.read(AssetQuery.self, from: $0) }
            #expect(read == (try JSONDecoder().decode(AssetQuery.self, from: data)), "\(text)")
        }
        // What the decoder refuses, the reader refuses too (the daemon then lets the decoder name the field).
        for text in [#"{"ids":[1]}"#, #"{"mediaTypes":["hologram"]}"#, #"{"limit":1.5}"#, #"{"sort":[{}]}"#, #"{"includeHidden":"yes"}"#, "[]"] {
            let data = Data(text.utf8)
            #expect(throws: JSONReadError.self, "\(text)") { try data.withUnsafeBytes { try JSONReader.read(AssetQuery.self, from: $0) } }
            #expect(throws: DecodingError.self, "\(text)") { try JSONDecoder().decode(AssetQuery.self, from: data) }
        }
    }

    @Test func writesQueriesAsTheCodableConformanceDoes() throws {
        for query in Self.queries {
            var writer = JSONWriter()
            query.write(to: &writer)
            let written = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? NSDictionary
            let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(query)) as? NSDictionary
            #expect(written == encoded)
        }
    }
}
