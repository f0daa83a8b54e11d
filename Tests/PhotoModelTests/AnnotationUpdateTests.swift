import CompactJSON
import Foundation
import Testing
@testable import PhotoModel

struct AnnotationUpdateTests {
    private func validated(_ json: String) throws(LibraryError) -> LibraryChange {
        // The JSON is the test's own and always decodes.
        let request = try! JSONDecoder().decode(ChangeRequest.self, from: Data(json.utf8))
        return try request.validated(index: 2)
    }

    @Test func nullOrEmptyTextClearsATitleAndAbsentTextLeavesIt() throws {
        let cleared = try validated(#"{"op": "updateAsset", "target": "a", "title": null, "caption": ""}"#)
        #expect(cleared == .updateAsset(target: "a", AssetUpdate(title: .cleared, caption: .cleared)))
        let left = try validated(#"{"op": "updateAsset", "target": "a", "rating": 3}"#)
        #expect(left == .updateAsset(target: "a", AssetUpdate(rating: 3)))
    }

    @Test(arguments: [
        (#"{"op": "updateAsset", "target": "a", "rating": 6}"#, "rating 6 is outside -1...5"),
        (#"{"op": "updateAsset", "target": "a", "rating": -2}"#, "rating -2 is outside -1...5"),
        (#"{"op": "updateAsset", "target": "a", "addKeywords": ["\#(String(repeating: "é", count: 1_001))"]}"#,
         "a keyword is longer than 1000 characters"),
        (#"{"op": "updateAsset", "target": "a", "caption": "a\u0000b"}"#, "the caption contains NUL"),
    ])
    func outOfRangeValuesAreInvalidChangesNamingTheReason(json: String, reason: String) {
        #expect {
            _ = try validated(json)
        } throws: { error in
            guard case LibraryError.invalidChange(2, let found) = error else { return false }
            return found.hasPrefix(reason)
        }
    }

    @Test func keywordsAreReplacedThenAddedThenRemovedEachOnce() {
        let update = AssetUpdate(keywords: ["b", " a "], addKeywords: ["c", "a", ""], removeKeywords: ["b"])
        #expect(update.applied(to: Annotations(rating: 2, keywords: ["x"])) == Annotations(rating: 2, keywords: ["a", "c"]))
        #expect(AssetUpdate(addKeywords: ["y"]).applied(to: Annotations(keywords: ["x"])).keywords == ["x", "y"])
        #expect(!AssetUpdate(isFavorite: true).changesAnnotations && AssetUpdate(caption: .cleared).changesAnnotations)
    }

    @Test func anAssetsAnnotationsRoundTripThroughBothJSONCoders() throws {
        var asset = Asset(id: "a", mediaType: .image, pixelWidth: 1, pixelHeight: 1, creationDate: nil, modificationDate: nil,
                          addedDate: Timestamp(secondsSince1970: 0), location: nil, originalFilename: "a.jpg", fileSize: 1)
        asset.annotations = Annotations(rating: -1, keywords: ["Places|Paris", "cat"], title: "T", caption: nil)
        asset.sidecar = SidecarState(path: "/p/a.jpg.xmp", writeProblem: "Read-only file system")
        let encoded = try JSONEncoder().encode(asset)
        #expect(try JSONDecoder().decode(Asset.self, from: encoded) == asset)
        var writer = JSONWriter()
        asset.write(to: &writer)
        #expect(try writer.bytes.withUnsafeBytes { try JSONReader.read(Asset.self, from: $0) } == asset)
    }
}
