import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Varlink

/// Random transactions against random observed queries: applying every reply to the held lists must give
/// exactly what a fresh fetch returns at that reply's token.
@Suite(.serialized)
struct ObservePropertyTests {
    @Test func appliedRepliesAlwaysMatchAFreshFetch() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 12)
        var generator = SystemRandomNumberGenerator()
        var assets = library.assetIds
        let albums = try await library.performChanges([
            ["op": "createAlbum", "title": "One", "placeholder": "@one"],
            ["op": "createAlbum", "title": "Two", "placeholder": "@two"],
            ["op": "addAssets", "target": "@one", "ids": .array(assets.prefix(6).map(JSONValue.string))],
        ])["created"]!
        let albumIds = [albums["@one"]!, albums["@two"]!]
        let smart = try await library.call("FetchCollections", ["query": ["kind": "smartAlbum"]])["collections"]!.arrayValue!
        let favorites = smart.first { $0["subtype"] == "smartAlbumFavorites" }!["id"]!
        let queries: [String: JSONValue] = [
            "all": [:],
            "hiddenToo": ["includeHidden": true],
            "favorites": ["collection": favorites],
            "albumOne": ["collection": albumIds[0]],
            "albumTwo": ["collection": albumIds[1]],
            "newestFirst": ["sort": [["key": "creationDate", "ascending": false]]],
            "widest": ["sort": [["key": "pixelWidth", "ascending": false], ["key": "creationDate"]], "limit": 5],
        ]
        let observer = try await library.daemon.connect()
        var replies = observer.stream("io.photolibd.Library.Observe", parameters: JSONValue.object([
            "assetQueries": .object(queries),
            "collectionQueries": ["albums": ["kind": "album"]],
        ]), returning: FetchReply.self).makeAsyncIterator()
        var held: [String: [String]] = [:]
        for result in try #require(try await replies.next()).results { held[result.name] = result.ids ?? [] }

        let photos = try TemporaryDirectory()
        for round in 0..<150 {
            let asset = { assets.randomElement(using: &generator)! }
            let change: [String: JSONValue]
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: change = ["op": "updateAsset", "target": .string(asset()), "isFavorite": .bool(Bool.random(using: &generator))]
            case 1: change = ["op": "updateAsset", "target": .string(asset()), "isHidden": .bool(Bool.random(using: &generator))]
            case 2: change = ["op": "updateAsset", "target": .string(asset()),
                              "creationDate": .string("20\(10 + Int.random(in: 0..<15, using: &generator))-06-01T12:00:00+02:00")]
            case 3: change = ["op": "deleteAssets", "ids": [.string(asset())]]
            case 4: change = ["op": "restoreAssets", "ids": [.string(asset())]]
            case 5: change = ["op": "addAssets", "target": albumIds.randomElement(using: &generator)!,
                              "ids": [.string(asset()), .string(asset())]]
            case 6: change = ["op": "removeAssets", "target": albumIds.randomElement(using: &generator)!, "ids": [.string(asset())]]
            case 7: change = ["op": "createAlbum", "title": .string("Album \(round)")]
            case 8:
                let path = try ImageFixtures.image(at: photos.file("new\(round).jpg"), width: Int.random(in: 16...64, using: &generator), height: 16)
                change = ["op": "createAsset", "path": .string(path), "placeholder": "@new"]
            default:
                let doomed = assets.remove(at: Int.random(in: 0..<assets.count, using: &generator))
                change = ["op": "deleteAssets", "ids": [.string(doomed)], "permanently": true]
            }
            let outcome: JSONValue
            do {
                outcome = try await library.performChanges([change])
            } catch let refused as VarlinkError where refused.name.hasPrefix("io.photolibd.Library.") {
                // A change the library refuses (e.g. adding a trashed asset to an album) commits nothing.
                continue
            }
            if let created = outcome["created"]?["@new"]?.stringValue { assets.append(created) }
            let token = try #require(outcome["token"]?.stringValue)
            let reply = try #require(try await replies.next())
            #expect(reply.token == token)
            for result in reply.results { held[result.name] = result.applied(to: held[result.name] ?? []) }
            for (name, query) in queries {
                let fresh = try await library.call("FetchAssets", ["query": query, "pageSize": 10_000])
                #expect(fresh["token"]?.stringValue == token)
                #expect(held[name] == fresh["assets"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, "\(name) after \(change)")
            }
            let albumsNow = try await library.call("FetchCollections", ["query": ["kind": "album"]])
            #expect(held["albums"] == albumsNow["collections"]?.arrayValue?.compactMap { $0["id"]?.stringValue })
        }
        await observer.close()
    }
}

/// The parts of an Observe reply the property test needs.
struct FetchReply: Decodable, Sendable {
    var token: String
    var results: [FetchResultChange]
}
