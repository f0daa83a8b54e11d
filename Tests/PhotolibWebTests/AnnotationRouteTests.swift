import Foundation
import HTTPTypes
import NIOCore
import PhotoLibrary
import TestSupport
import Testing

@testable import PhotolibWeb

/// The viewer's annotations (contract §14) through the gallery's routes: saved through `updateAsset`, shown by the
/// asset's info, found by the search box, refused with the daemon's reason when out of range.
@Suite(.serialized)
struct AnnotationRouteTests {
    @Test func starsKeywordsTitleAndCaptionAreSavedAndShownInTheAssetsInfo() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 2)
        let id = gallery.assetIds[0]
        try await gallery.test { client in
            for change in [
                #"{"action": "rate", "rating": 4}"#,
                #"{"action": "tag", "addKeywords": ["cat", "Places|Paris"]}"#,
                #"{"action": "tag", "removeKeywords": ["cat"], "addKeywords": ["dog"]}"#,
                #"{"action": "setTitle", "title": "On the quay"}"#,
                #"{"action": "setCaption", "caption": "Evening light"}"#,
            ] {
                let response = try await Self.change(change, ids: [id], gallery: gallery, client: client)
                #expect(response.status == .ok, "\(change): \(String(buffer: response.body))")
            }
            let info = try await client.execute(uri: "/api/assets/\(id)", method: .get, headers: gallery.signedIn)
            let asset = try #require(
                (try JSONSerialization.jsonObject(with: Data(buffer: info.body)) as? [String: Any])?["asset"]
                    as? [String: Any])
            #expect(asset["rating"] as? Int == 4)
            #expect(Set(asset["keywords"] as? [String] ?? []) == ["Places|Paris", "dog"])
            #expect(asset["title"] as? String == "On the quay")
            #expect(asset["caption"] as? String == "Evening light")
            #expect(
                (asset["sidecar"] as? [String: Any])?["path"] as? String == "IMG_0.jpg.xmp",
                "the sidecar by its name only")

            let cleared = try await Self.change(
                #"{"action": "setCaption", "caption": "  "}"#, ids: [id], gallery: gallery, client: client)
            #expect(cleared.status == .ok)
        }
        let library = try await PhotoLibrary.connect(socketPath: gallery.daemon.socketPath)
        let asset = try #require(try await library.fetchAssets(matching: AssetQuery(ids: [id])).assets.first)
        await library.close()
        #expect(asset.annotations.caption == nil)
        #expect(asset.annotations.title == "On the quay")
    }

    @Test func aRatingOutOfRangeOrAnEditOfSeveralTitlesIsRefusedWithItsReason() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 2)
        try await gallery.test { client in
            let tooMany = try await Self.change(
                #"{"action": "rate", "rating": 9}"#, ids: [gallery.assetIds[0]], gallery: gallery, client: client)
            #expect(tooMany.status == .badRequest)
            #expect(String(buffer: tooMany.body).contains("rating"), "\(String(buffer: tooMany.body))")
            let two = try await Self.change(
                #"{"action": "setTitle", "title": "x"}"#, ids: gallery.assetIds, gallery: gallery, client: client)
            #expect(two.status == .badRequest)
            let nothing = try await Self.change(
                #"{"action": "tag"}"#, ids: [gallery.assetIds[0]], gallery: gallery, client: client)
            #expect(nothing.status == .badRequest)
        }
    }

    @Test(arguments: [
        (#"{"predicate": "rating >= 4"}"#, [0]),
        (#"{"predicate": "ANY keywords == 'Places|Paris'"}"#, [1]),
        (#"{"text": "paris"}"#, [1]),
        (#"{"text": "QUAY"}"#, [0]),
        (#"{"text": "it's"}"#, [] as [Int]),
    ])
    func theSearchBoxFindsByRatingKeywordAndWords(terms: String, expected: [Int]) async throws {
        let gallery = try await GalleryUnderTest.start(photos: 3)
        try await gallery.test { client in
            _ = try await Self.change(
                #"{"action": "rate", "rating": 5}"#, ids: [gallery.assetIds[0]], gallery: gallery, client: client)
            _ = try await Self.change(
                #"{"action": "setTitle", "title": "The quay"}"#, ids: [gallery.assetIds[0]], gallery: gallery,
                client: client)
            _ = try await Self.change(
                #"{"action": "tag", "addKeywords": ["Places|Paris"]}"#, ids: [gallery.assetIds[1]],
                gallery: gallery, client: client)
            let key =
                "search-"
                + Data(terms.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let index = try await client.execute(uri: "/api/views/\(key)", method: .get, headers: gallery.signedIn)
            #expect(index.status == .ok, "\(String(buffer: index.body))")
            let view = try #require(try JSONSerialization.jsonObject(with: Data(buffer: index.body)) as? [String: Any])
            let keys = (view["sections"] as? [[Any]] ?? []).map { $0[0] as! String }.joined(separator: ",")
            let sections = try await client.execute(
                uri: "/api/views/\(key)/sections?keys=\(keys)", method: .get, headers: gallery.signedIn)
            let loaded = try JSONSerialization.jsonObject(with: Data(buffer: sections.body)) as! [String: Any]
            let ids = (loaded["sections"] as! [[String: Any]]).flatMap {
                ($0["tiles"] as! [[Any]]).map { $0[0] as! String }
            }
            #expect(Set(ids) == Set(expected.map { gallery.assetIds[$0] }))
        }
    }

    static func change(_ body: String, ids: [String], gallery: GalleryUnderTest, client: GalleryClient) async throws
        -> GalleryResponse
    {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        object["ids"] = ids
        var headers = gallery.signedIn
        headers[.contentType] = "application/json"
        return try await client.execute(
            uri: "/api/changes", method: .post, headers: headers,
            body: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object)))
    }
}
