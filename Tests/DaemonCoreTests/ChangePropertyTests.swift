import Foundation
import LibraryStore
import Logging
import PhotoModel
import PhotolibConfig
import PhotolibProtocol
import TestSupport
import Testing
import Varlink

@testable import DaemonCore

/// Properties over thousands of random calls, in-process on the model library: every predicate gets a result or
/// `InvalidPredicate`, and every change list, decoded from JSON as the varlink interface decodes it, commits whole or
/// changes nothing. (`LibraryPropertyTests` runs a few hundred of each through the daemon's socket.)
@Suite(.serialized)
struct ChangePropertyTests {
    /// A core on the model library, with its assets' ids by name.
    private static func modelLibrary(in directory: TemporaryDirectory) async throws -> (LibraryCore, [String: String]) {
        try FileManager.default.createDirectory(atPath: directory.file("library"), withIntermediateDirectories: true)
        let ids = try await ModelLibrarySeed.write(toDatabaseAt: directory.file("library/library.sqlite"))
        return (try await CoreUnderTest.open(in: directory), ids)
    }

    @Test func everyRandomPredicateGetsAResultOrInvalidPredicate() async throws {
        let directory = try TemporaryDirectory()
        let (core, _) = try await Self.modelLibrary(in: directory)
        let token = try await core.database.currentToken()
        var generator = RandomPredicates()
        var answered = 0, refused = 0
        for _ in 0..<2_000 {
            let predicate = generator.next()
            do {
                let page = try await core.database.fetchAssets(AssetQuery(predicate: predicate), pageSize: 1)
                #expect(page.count >= page.assets.count)
                answered += 1
            } catch LibraryError.invalidPredicate(let reason) {
                #expect(reason.contains(" at position "), "\(predicate): \(reason)")
                refused += 1
            }
            if let collectionPredicate = generator.collectionPredicate() {
                do {
                    _ = try await core.database.fetchCollections(CollectionQuery(predicate: collectionPredicate))
                } catch LibraryError.invalidPredicate {}
            }
        }
        #expect(answered > 200 && refused > 200)
        #expect(try await core.database.currentToken() == token)
        await core.close()
    }

    @Test func everyRandomChangeListCommitsWholeOrChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        let (core, assets) = try await Self.modelLibrary(in: directory)
        let smartAlbums = try await Self.collections(CollectionQuery(kind: .smartAlbum), in: core).map(\.id)
        var generator = RandomChanges(
            assets: assets.sorted { $0.key < $1.key }.map(\.value) + ["no-such-asset"],
            readOnly: smartAlbums + ["moment-2024-03-01", "no-such-collection"])
        var state = try await Self.everything(in: core)
        var token = try await core.database.currentToken()
        var committed = 0, refused = 0
        for round in 0..<400 {
            let changes = generator.changes()
            do {
                let outcome = try await Self.perform(changes, in: core)
                committed += 1
                #expect(outcome.token != token)
                token = outcome.token
                state = try await Self.everything(in: core)
                generator.collections = state.collections
            } catch is LibraryError, is DecodingError {
                refused += 1
                #expect(try await core.database.currentToken() == token, "\(changes)")
                #expect(try await Self.everything(in: core) == state, "\(changes)")
            }
            if round % 100 == 99 { try await Self.expectSmartAlbumsCountWhatTheyShow(core) }
        }
        #expect(committed > 50 && refused > 50, "\(committed) committed, \(refused) refused")
        await core.close()
    }

    /// Decodes `changes` as `PerformChanges` parameters, as the varlink interface does, and performs them.
    private static func perform(_ changes: [[String: JSONValue]], in core: LibraryCore) async throws -> ChangeOutcome {
        let message = try JSONEncoder().encode(JSONValue.object(["changes": .array(changes.map(JSONValue.object))]))
        let parameters = try JSONDecoder().decode(PerformChangesParameters.self, from: message)
        let validated = try parameters.changes.enumerated().map { index, change in try change.validated(index: index) }
        return try await core.changeRequests.perform(validated, caller: nil, logger: CoreUnderTest.logger)
    }

    private static func expectSmartAlbumsCountWhatTheyShow(_ core: LibraryCore) async throws {
        for album in try await collections(CollectionQuery(kind: .smartAlbum), in: core) {
            let fetched = try await core.database.fetchAssets(AssetQuery(collection: album.id), pageSize: 0)
            #expect(fetched.count == album.assetCount, "\(album)")
        }
    }

    private static func collections(_ query: CollectionQuery, in core: LibraryCore) async throws -> [AssetCollection] {
        try await core.database.fetchCollections(query, pageSize: 10_000).collections
    }

    /// Everything a client can see of the library: every asset (hidden, trashed and burst frames too), every
    /// collection, and each album's assets and each folder's children in order.
    private static func everything(in core: LibraryCore) async throws -> LibraryContents {
        let assets = try await core.database.fetchAssets(
            AssetQuery(includeHidden: true, includeTrashed: true, includeAllBurstAssets: true), pageSize: 10_000
        ).assets
        let collections = try await collections(CollectionQuery(), in: core)
        var contents: [String: [String]] = [:]
        for collection in collections {
            switch collection.kind {
            case .album:
                contents[collection.id] = try await core.database.fetchAssets(
                    AssetQuery(collection: collection.id, includeHidden: true, includeTrashed: true),
                    pageSize: 10_000
                ).assets.map(\.id)
            case .folder:
                contents[collection.id] = try await Self.collections(CollectionQuery(parent: collection.id), in: core)
                    .map(\.id)
            default:
                break
            }
        }
        return LibraryContents(assets: assets, collections: collections, contents: contents)
    }

    private struct LibraryContents: Equatable {
        var assets: [Asset]
        var collections: [AssetCollection]
        var contents: [String: [String]]
    }
}
