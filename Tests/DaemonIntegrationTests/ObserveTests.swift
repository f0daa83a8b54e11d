import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Varlink

@Suite(.serialized)
struct ObserveTests {
    @Test func theSnapshotComesFirstThenOneReplyPerTransaction() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 2)
        let observer = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        var events = observer.observe(assetQueries: ["library": AssetQuery(), "favorites": AssetQuery(ids: [library.assetIds[0]])])
            .makeAsyncIterator()

        let snapshot = try #require(try await events.next())
        #expect(snapshot.isSnapshot)
        #expect(snapshot.results.map(\.name) == ["favorites", "library"])
        #expect(snapshot.results[1].ids == library.assetIds)
        #expect(snapshot.results[1].count == 2)

        let favorite = try await library.change { $0.setFavorite(true, for: [library.assetIds[0]]) }
        let first = try #require(try await events.next())
        #expect(first.token == favorite.token)
        #expect(first.previousToken == snapshot.token)
        #expect(first.objects.filter { $0.kind == .asset } == [ObjectChange(id: library.assetIds[0], kind: .asset, change: .changed)])

        let trash = try await library.change { $0.deleteAssets([library.assetIds[1]]) }
        let second = try #require(try await events.next())
        #expect(second.token == trash.token)
        #expect(second.previousToken == favorite.token)
        let libraryChange = second.results.first { $0.name == "library" }
        #expect(libraryChange?.hasIncrementalChanges == true)
        #expect(libraryChange?.removedIndexes == [1])
        #expect(libraryChange?.count == 1)
        await observer.close()
        // The daemon keeps serving after the observer went away.
        #expect(try await library.fetchIds().count == 1)
    }

    @Test func everyObserverSeesEveryCommitInOrder() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        var observers: [AsyncThrowingStream<LibraryChangeEvent, any Error>.AsyncIterator] = []
        var clients: [PhotoLibrary] = []
        for _ in 0..<3 {
            let client = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
            clients.append(client)
            var events = client.observe().makeAsyncIterator()
            _ = try await events.next()
            observers.append(events)
        }
        var tokens: [String] = []
        for flag in [true, false, true, false] {
            tokens.append(try await library.change { $0.setFavorite(flag, for: [library.assetIds[0]]) }.token)
        }
        for index in observers.indices {
            var seen: [String] = []
            for _ in tokens { seen.append(try #require(try await observers[index].next()).token) }
            #expect(seen == tokens)
        }
        for client in clients { await client.close() }
    }

    @Test func onlyRelevantSkipsTransactionsThatChangeNoObservedResult() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 2)
        let observer = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        var events = observer.observe(assetQueries: ["first": AssetQuery(ids: [library.assetIds[0]])], onlyRelevant: true)
            .makeAsyncIterator()
        let snapshot = try #require(try await events.next())
        _ = try await library.change { $0.setFavorite(true, for: [library.assetIds[1]]) }
        _ = try await library.change { _ = $0.createAlbum(title: "Elsewhere") }
        let relevant = try await library.change { $0.setHidden(true, for: [library.assetIds[0]]) }
        let event = try #require(try await events.next())
        #expect(event.token == relevant.token)
        #expect(event.results.first?.removedIndexes == [0])
        #expect(snapshot.results.first?.ids == [library.assetIds[0]])
        await observer.close()
    }

    @Test func observingWithoutMoreIsAnError() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let connection = try await daemon.connect()
        await #expect { try await connection.call("io.photolibd.Library.Observe", parameters: [:]) } throws: {
            ($0 as? VarlinkError)?.name == "org.varlink.service.ExpectedMore"
        }
        await connection.close()
    }
}
