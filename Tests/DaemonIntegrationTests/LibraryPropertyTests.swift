import Foundation
import PhotoLibrary
import TestSupport
import Testing
import Varlink

/// Properties over random calls through the socket: the daemon answers every one, and a call that fails changes
/// nothing. The same properties hold over thousands of calls in-process (`DaemonCoreTests.ChangePropertyTests`);
/// here a few hundred show that the transport keeps them.
@Suite(.serialized)
struct LibraryPropertyTests {
    @Test func everyRandomPredicateGetsAResultOrInvalidPredicate() async throws {
        let (library, _) = try await ModelLibrary.make()
        let token = try await library.token()
        var generator = RandomPredicates()
        var answered = 0, refused = 0
        for _ in 0..<300 {
            let predicate = generator.next()
            do {
                let reply = try await library.client.fetchAssets(
                    matching: AssetQuery(predicate: predicate), pageSize: 1)
                #expect(reply.count >= reply.assets.count)
                answered += 1
            } catch {
                let error = error.varlinkError
                #expect(
                    error?.name == "io.photolibd.Library.InvalidPredicate", "\(predicate): \(String(describing: error))"
                )
                #expect(error?.parameters["reason"]?.stringValue?.contains(" at position ") == true, "\(predicate)")
                refused += 1
            }
            if let collectionPredicate = generator.collectionPredicate() {
                do {
                    _ = try await library.client.fetchCollections(
                        matching: CollectionQuery(predicate: collectionPredicate))
                } catch {
                    #expect(
                        error.varlinkError?.name == "io.photolibd.Library.InvalidPredicate",
                        "\(collectionPredicate): \(error)")
                }
            }
        }
        #expect(answered > 30 && refused > 30)
        #expect(try await library.token() == token)
        #expect(library.daemon.isRunning)
    }

    @Test func everyRandomChangeListCommitsWholeOrChangesNothing() async throws {
        let (library, assets) = try await ModelLibrary.make()
        let smartAlbums = try await library.collections(CollectionQuery(kind: .smartAlbum)).map(\.id)
        var generator = RandomChanges(
            assets: assets.sorted { $0.key < $1.key }.map(\.value) + ["no-such-asset"],
            readOnly: smartAlbums + ["moment-2024-03-01", "no-such-collection"])
        var state = try await library.everything()
        var token = try await library.token()
        var committed = 0, refused = 0
        for round in 0..<100 {
            let changes = generator.changes()
            do {
                // Raw change lists: the generator also writes ones no typed client could (wrong types, unknown ops).
                let reply = try await library.performChanges(changes)
                committed += 1
                #expect(reply["token"]?.stringValue != token)
                token = try #require(reply["token"]?.stringValue)
                state = try await library.everything()
                generator.collections = state.collections
            } catch let error as VarlinkError {
                refused += 1
                #expect(
                    [
                        "io.photolibd.Library.InvalidChange", "io.photolibd.Library.NotFound",
                        "org.varlink.service.InvalidParameter",
                    ].contains(error.name), "\(changes): \(error)")
                #expect(try await library.token() == token, "\(changes)")
                #expect(try await library.everything() == state, "\(changes)")
            }
            if round % 50 == 49 { try await expectSmartAlbumsCountWhatTheyShow(library) }
        }
        #expect(committed > 5 && refused > 5, "\(committed) committed, \(refused) refused")
    }

    private func expectSmartAlbumsCountWhatTheyShow(_ library: PopulatedDaemon) async throws {
        for album in try await library.collections(CollectionQuery(kind: .smartAlbum)) {
            let fetched = try await library.client.fetchAssets(matching: AssetQuery(collection: album.id), pageSize: 0)
            #expect(fetched.count == album.assetCount, "\(album)")
        }
    }
}
