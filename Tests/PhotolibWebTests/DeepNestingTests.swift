import Foundation
import HTTPTypes
import NIOCore
import TestSupport
import Testing

@testable import PhotolibWeb

/// What a page sends nested 100,000 deep (a change's JSON body, a search's terms) is refused with 400 and the
/// gallery serves on: Foundation's `JSONDecoder` refuses JSON nested deeper than 512 levels, a view key is at most
/// 4096 bytes, and the daemon refuses a search's predicate nested deeper than its limit.
@Suite(.serialized)
struct DeepNestingTests {
    static let depth = 100_000

    static func nested(_ open: String, _ inner: String, _ close: String, depth: Int = depth) -> String {
        NestedFixtures.nested(open, inner, close, depth: depth)
    }

    static func searchKey(_ terms: String) -> String {
        "search-"
            + Data(terms.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static let searches = [
        "arrays": nested("[", "1", "]"),
        "objects": #"{"predicate":"# + nested(#"{"a":"#, "1", "}") + "}",
        // Within the key's 4096 bytes, and deeper than JSONDecoder reads.
        "arrays that fit in a key": #"{"text":"# + nested("[", "1", "]", depth: 1_000) + "}",
    ]

    @Test(arguments: searches.keys.sorted())
    func aSearchKeyNestedDeepNamesNoView(kind: String) {
        #expect(ViewSpec(key: Self.searchKey(Self.searches[kind]!)) == nil)
    }

    @Test func aChangeNestedDeepIsABadRequestAndTheGalleryServesOn() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        try await gallery.test { client in
            var headers = gallery.signedIn
            headers[.contentType] = "application/json"
            for body in [
                #"{"action":"rate","crop":"# + Self.nested(#"{"x":"#, "1", "}") + "}",
                #"{"action":"tag","addKeywords":"# + Self.nested("[", "", "]") + "}",
            ] {
                let response = try await client.execute(
                    uri: "/api/changes", method: .post, headers: headers,
                    body: ByteBuffer(string: body))
                #expect(response.status == .badRequest, "\(String(buffer: response.body))")
            }
            let rated = try await AnnotationRouteTests.change(
                #"{"action": "rate", "rating": 4}"#, ids: gallery.assetIds,
                gallery: gallery, client: client)
            #expect(rated.status == .ok, "\(String(buffer: rated.body))")
        }
    }

    @Test func aSearchWhosePredicateNestsDeepIsABadRequestAndTheGalleryServesOn() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        try await gallery.test { client in
            let predicate = Self.nested("(", "rating > 1", ")", depth: 1_400)
            let key = Self.searchKey(#"{"predicate":"\#(predicate)"}"#)
            #expect(key.utf8.count <= 4096)
            let refused = try await client.execute(uri: "/api/views/\(key)", method: .get, headers: gallery.signedIn)
            #expect(refused.status == .badRequest, "\(String(buffer: refused.body))")
            #expect(String(buffer: refused.body).contains("nesting deeper than"))
            let timeline = try await client.execute(uri: "/api/views/timeline", method: .get, headers: gallery.signedIn)
            #expect(timeline.status == .ok)
        }
    }
}
