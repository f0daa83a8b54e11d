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
        var setUp = PhotoLibrary.ChangeBuilder()
        let folderPlaceholder = setUp.createFolder(title: "Trips")
        let one = setUp.createAlbum(title: "One", in: folderPlaceholder), two = setUp.createAlbum(title: "Two", in: folderPlaceholder)
        setUp.addAssets(Array(assets.prefix(6)), to: one)
        let created = try await library.client.performChanges(setUp).created
        let albumIds = [created[one]!, created[two]!]
        let folder = created[folderPlaceholder]!
        let favorites = try #require(try await library.collections(CollectionQuery(subtype: .smartAlbumFavorites)).first?.id)
        let queries: [String: AssetQuery] = [
            "all": AssetQuery(),
            "hiddenToo": AssetQuery(includeHidden: true),
            "favorites": AssetQuery(collection: favorites),
            "albumOne": AssetQuery(collection: albumIds[0]),
            "albumTwo": AssetQuery(collection: albumIds[1]),
            "newestFirst": AssetQuery(sort: [SortDescriptor(key: "creationDate", ascending: false)]),
            "widest": AssetQuery(sort: [SortDescriptor(key: "pixelWidth", ascending: false), SortDescriptor(key: "creationDate")], limit: 5),
            "longestFirst": AssetQuery(sort: [SortDescriptor(key: "duration", ascending: false)], limit: 7),
            "byName": AssetQuery(sort: [SortDescriptor(key: "originalFilename")]),
        ]
        let collectionQueries = ["albums": CollectionQuery(kind: .album), "inFolder": CollectionQuery(parent: folder),
                                 "topLevel": CollectionQuery(topLevelUserCollections: true)]
        let observer = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        var events = observer.observe(assetQueries: queries, collectionQueries: collectionQueries).makeAsyncIterator()
        var held: [String: [String]] = [:]
        func apply(_ event: LibraryChangeEvent) {
            for result in event.results { held[result.name] = result.applied(to: held[result.name] ?? []) }
        }
        for result in try #require(try await events.next()).results { held[result.name] = result.ids ?? [] }

        let photos = try TemporaryDirectory()
        var committed = 0
        for round in 0..<1_000 {
            if assets.isEmpty {
                var refill = PhotoLibrary.ChangeBuilder()
                let placeholder = refill.createAsset(fromFile: try ImageFixtures.image(at: photos.file("refill\(round).jpg")))
                assets.append(try #require(try await library.client.performChanges(refill).created[placeholder]))
                apply(try #require(try await events.next()))
            }
            let asset = { assets.randomElement(using: &generator)! }
            let album = { albumIds.randomElement(using: &generator)! }
            let index = { Int.random(in: 0..<4, using: &generator) }
            var change = PhotoLibrary.ChangeBuilder()
            var newAsset: String?
            switch Int.random(in: 0..<15, using: &generator) {
            case 10: change.insertAssets([asset()], at: [index()], in: album())
            case 11: change.moveAssets(at: [index()], to: index(), in: album())
            case 12: _ = change.createAlbum(title: "Nested \(round)", in: folder)
            case 13: change.moveChildCollections(at: [index()], to: index(), in: folder)
            case 14: change.renameCollection(album(), to: "Renamed \(round)")
            case 0: change.setFavorite(Bool.random(using: &generator), for: [asset()])
            case 1: change.setHidden(Bool.random(using: &generator), for: [asset()])
            case 2: change.setCreationDate(Timestamp(rfc3339: "20\(10 + Int.random(in: 0..<15, using: &generator))-06-01T12:00:00+02:00"),
                                           for: asset())
            case 3: change.deleteAssets([asset()])
            case 4: change.restoreAssets([asset()])
            case 5: change.addAssets([asset(), asset()], to: album())
            case 6: change.removeAssets([asset()], from: album())
            case 7: _ = change.createAlbum(title: "Album \(round)")
            case 8:
                let path = try ImageFixtures.image(at: photos.file("new\(round).jpg"), width: Int.random(in: 16...64, using: &generator), height: 16)
                newAsset = change.createAsset(fromFile: path)
            default:
                let doomed = assets.remove(at: Int.random(in: 0..<assets.count, using: &generator))
                change.deleteAssets([doomed], permanently: true)
            }
            let outcome: ChangeResult
            do {
                outcome = try await library.client.performChanges(change)
            } catch {
                // A change the library refuses (e.g. adding a trashed asset to an album) commits nothing.
                guard error.varlinkError?.name.hasPrefix("io.photolibd.Library.") == true else { throw error }
                continue
            }
            if let newAsset, let created = outcome.created[newAsset] { assets.append(created) }
            committed += 1
            let event = try #require(try await events.next())
            #expect(event.token == outcome.token)
            apply(event)
            for (name, query) in queries {
                let fresh = try await library.client.fetchAssets(matching: query, pageSize: 10_000)
                #expect(fresh.token == outcome.token)
                #expect(held[name] == fresh.assets.map(\.id), "\(name) after \(change.requests)")
            }
            for (name, query) in collectionQueries {
                #expect(held[name] == (try await library.collections(query)).map(\.id), "\(name) after \(change.requests)")
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
