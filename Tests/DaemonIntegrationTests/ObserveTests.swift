import Foundation
import Testing
import TestSupport
import Varlink

@Suite(.serialized)
struct ObserveTests {
    @Test func theSnapshotComesFirstThenOneReplyPerTransaction() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 2)
        let observer = try await library.daemon.connect()
        var replies = observer.stream("io.photolibd.Library.Observe", parameters: JSONValue.object([
            "assetQueries": ["library": [:], "favorites": ["ids": [.string(library.assetIds[0])]]],
        ]), returning: JSONValue.self).makeAsyncIterator()

        let snapshot = try #require(try await replies.next())
        let results = try #require(snapshot["results"]?.arrayValue)
        #expect(results.map { $0["name"]?.stringValue } == ["favorites", "library"])
        #expect(results[1]["ids"] == .array(library.assetIds.map(JSONValue.string)))
        #expect(results[1]["count"] == 2)
        let snapshotToken = try #require(snapshot["token"])

        let favorite = try await library.performChanges([["op": "updateAsset", "target": .string(library.assetIds[0]), "isFavorite": true]])
        let first = try #require(try await replies.next())
        #expect(first["token"] == favorite["token"])
        #expect(first["previousToken"] == snapshotToken)
        let changedAssets = first["objects"]?.arrayValue?.filter { $0["kind"] == "asset" }
        #expect(changedAssets == [["id": .string(library.assetIds[0]), "kind": "asset", "change": "changed", "contentChanged": false]])

        let trash = try await library.performChanges([["op": "deleteAssets", "ids": [.string(library.assetIds[1])]]])
        let second = try #require(try await replies.next())
        #expect(second["token"] == trash["token"])
        #expect(second["previousToken"] == favorite["token"])
        let libraryChange = second["results"]?.arrayValue?.first { $0["name"] == "library" }
        #expect(libraryChange?["hasIncrementalChanges"] == true)
        #expect(libraryChange?["removedIndexes"] == [1])
        #expect(libraryChange?["count"] == 1)
        await observer.close()
        // The daemon keeps serving after the observer went away.
        #expect(try await library.fetchIds().count == 1)
    }

    @Test func everyObserverSeesEveryCommitInOrder() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        var observers: [AsyncThrowingStream<JSONValue, any Error>.AsyncIterator] = []
        var connections: [VarlinkConnection] = []
        for _ in 0..<3 {
            let connection = try await library.daemon.connect()
            connections.append(connection)
            var iterator = connection.stream("io.photolibd.Library.Observe", parameters: JSONValue.object([:]),
                                             returning: JSONValue.self).makeAsyncIterator()
            _ = try await iterator.next()
            observers.append(iterator)
        }
        var tokens: [JSONValue] = []
        for flag in [true, false, true, false] {
            let reply = try await library.performChanges([["op": "updateAsset", "target": .string(library.assetIds[0]), "isFavorite": .bool(flag)]])
            tokens.append(reply["token"]!)
        }
        for index in observers.indices {
            var seen: [JSONValue] = []
            for _ in tokens { seen.append(try #require(try await observers[index].next())["token"]!) }
            #expect(seen == tokens)
        }
        for connection in connections { await connection.close() }
    }

    @Test func onlyRelevantSkipsTransactionsThatChangeNoObservedResult() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 2)
        let observer = try await library.daemon.connect()
        var replies = observer.stream("io.photolibd.Library.Observe", parameters: JSONValue.object([
            "assetQueries": ["first": ["ids": [.string(library.assetIds[0])]]], "onlyRelevant": true,
        ]), returning: FetchReply.self).makeAsyncIterator()
        let snapshot = try #require(try await replies.next())
        _ = try await library.performChanges([["op": "updateAsset", "target": .string(library.assetIds[1]), "isFavorite": true]])
        _ = try await library.performChanges([["op": "createAlbum", "title": "Elsewhere"]])
        let relevant = try await library.performChanges([["op": "updateAsset", "target": .string(library.assetIds[0]), "isHidden": true]])
        let reply = try #require(try await replies.next())
        #expect(reply.token == relevant["token"]?.stringValue)
        #expect(reply.results.first?.removedIndexes == [0])
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
