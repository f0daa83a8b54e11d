import Foundation
import Testing
@testable import PhotoModel

struct ChangeRequestTests {
    private func decode(_ json: String) throws -> ChangeRequest {
        try JSONDecoder().decode(ChangeRequest.self, from: Data(json.utf8))
    }

    @Test func distinguishesAnAbsentFieldFromNull() throws {
        let absent = try decode(#"{"op": "updateAsset", "target": "a"}"#)
        let cleared = try decode(#"{"op": "updateAsset", "target": "a", "location": null}"#)
        let set = try decode(#"{"op": "updateAsset", "target": "a", "location": {"latitude": 1, "longitude": 2}}"#)
        #expect(absent.location == .unchanged)
        #expect(cleared.location == .cleared)
        #expect(set.location == .set(Location(latitude: 1, longitude: 2)))
    }

    @Test func validatesIntoTheTypedOp() throws {
        let change = try decode(#"{"op": "createAlbum", "title": "Trip", "placeholder": "@trip"}"#).validated(index: 0)
        #expect(change == .createAlbum(title: "Trip", placeholder: "@trip", parent: nil))
    }

    @Test(arguments: [
        (#"{"op": "explode"}"#, "unknown op 'explode'"),
        (#"{"op": "addAssets", "target": "x"}"#, "addAssets needs 'ids'"),
        (#"{"op": "createAlbum", "title": "A", "placeholder": "nope"}"#, "placeholder 'nope' must begin with '@'"),
        (#"{"op": "createAlbum", "title": ""}"#, "a title must be non-empty text without NUL"),
        (#"{"op": "updateAsset", "target": "a", "location": {"latitude": 91, "longitude": 0}}"#, "location is off the globe"),
        (#"{"op": "insertAssets", "target": "x", "ids": ["a"], "indexes": []}"#, "insertAssets needs one index per id"),
    ])
    func rejectsMalformedChangesNamingTheirIndex(json: String, reason: String) throws {
        #expect(throws: LibraryError.invalidChange(index: 3, reason: reason)) {
            try decode(json).validated(index: 3)
        }
    }

    @Test func roundTripsThroughJSON() throws {
        let original = try decode(#"{"op": "updateAsset", "target": "a", "creationDate": null, "isFavorite": true}"#)
        let again = try JSONDecoder().decode(ChangeRequest.self, from: JSONEncoder().encode(original))
        #expect(again == original)
    }
}
