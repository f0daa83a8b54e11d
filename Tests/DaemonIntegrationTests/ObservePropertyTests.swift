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
            ["op": "createFolder", "title": "Trips", "placeholder": "@folder"],
            ["op": "createAlbum", "title": "One", "placeholder": "@one", "parent": "@folder"],
            ["op": "createAlbum", "title": "Two", "placeholder": "@two", "parent": "@folder"],
            ["op": "addAssets", "target": "@one", "ids": .array(assets.prefix(6).map(JSONValue.string))],
        ])["created"]!
        let albumIds = [albums["@one"]!, albums["@two"]!]
        let folder = albums["@folder"]!
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
            "collectionQueries": ["albums": ["kind": "album"], "inFolder": ["parent": folder],
                                  "topLevel": ["topLevelUserCollections": true]],
        ]), returning: FetchReply.self).makeAsyncIterator()
        var held: [String: [String]] = [:]
        for result in try #require(try await replies.next()).results { held[result.name] = result.ids ?? [] }

        let photos = try TemporaryDirectory()
        var committed = 0
        for round in 0..<1_000 {
            if assets.isEmpty {
                let path = try ImageFixtures.image(at: photos.file("refill\(round).jpg"))
                assets.append(try #require(try await library.performChanges([["op": "createAsset", "path": .string(path),
                                                                               "placeholder": "@refill"]])["created"]?["@refill"]?.stringValue))
                _ = try await replies.next().map { reply in
                    for result in reply.results { held[result.name] = result.applied(to: held[result.name] ?? []) }
                }
            }
            let asset = { assets.randomElement(using: &generator)! }
            let album = { albumIds.randomElement(using: &generator)! }
            let index = { JSONValue.int(Int.random(in: 0..<4, using: &generator)) }
            let change: [String: JSONValue]
            switch Int.random(in: 0..<15, using: &generator) {
            case 10: change = ["op": "insertAssets", "target": album(), "ids": [.string(asset())], "indexes": [index()]]
            case 11: change = ["op": "moveAssets", "target": album(), "indexes": [index()], "toIndex": index()]
            case 12: change = ["op": "createAlbum", "title": .string("Nested \(round)"), "parent": folder]
            case 13: change = ["op": "moveChildCollections", "target": folder, "indexes": [index()], "toIndex": index()]
            case 14: change = ["op": "updateCollection", "target": album(), "title": .string("Renamed \(round)")]
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
            committed += 1
            let reply = try #require(try await replies.next())
            #expect(reply.token == token)
            for result in reply.results { held[result.name] = result.applied(to: held[result.name] ?? []) }
            for (name, query) in queries {
                let fresh = try await library.call("FetchAssets", ["query": query, "pageSize": 10_000])
                #expect(fresh["token"]?.stringValue == token)
                #expect(held[name] == fresh["assets"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, "\(name) after \(change)")
            }
            for (name, query) in ["albums": ["kind": "album"], "inFolder": ["parent": folder],
                                  "topLevel": ["topLevelUserCollections": true]] as [String: JSONValue] {
                let fresh = try await library.call("FetchCollections", ["query": query])
                #expect(held[name] == fresh["collections"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, "\(name) after \(change)")
            }
        }
        #expect(committed > 700, "only \(committed) of 1,000 random changes committed")
        await observer.close()
    }
}

/// The parts of an Observe reply the property test needs.
struct FetchReply: Decodable, Sendable {
    var token: String
    var results: [FetchResultChange]
}
