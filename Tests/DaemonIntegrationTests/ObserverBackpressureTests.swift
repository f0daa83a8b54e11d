import Foundation
import PhotoLibrary
import Testing
import TestSupport
import Varlink

/// An observer that never reads must not slow the library or other observers, nor grow the daemon.
@Suite(.serialized)
struct ObserverBackpressureTests {
    static let changeCount = 10_000
    static let writers = 4

    @Test func aStalledObserverCostsNothingAndCatchesUpWithOneReload() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 3)
        let stalled = try RawClient(socketPath: library.daemon.socketPath)
        stalled.send(Array(#"{"method": "io.photolibd.Library.Observe", "more": true, "parameters": {"assetQueries": {"favorites": {"sort": [{"key": "isFavorite"}]}}}}"#.utf8) + [0])

        let reader = try await library.daemon.connect()
        var readerReplies = reader.stream("io.photolibd.Library.Observe", parameters: JSONValue.object(["assetQueries": ["all": [:]]]),
                                          returning: FetchReply.self).makeAsyncIterator()
        var readerHeld = try #require(try await readerReplies.next()).results[0].ids ?? []
        let residentBefore = try #require(library.daemon.residentKilobytes)

        let assets = library.assetIds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    let connection = try await library.daemon.connect()
                    for round in 0..<(Self.changeCount / Self.writers) {
                        _ = try await connection.call("io.photolibd.Library.PerformChanges", parameters: ["changes": [[
                            "op": "updateAsset", "target": .string(assets[(writer + round) % assets.count]),
                            "isFavorite": .bool(round % 2 == 0),
                        ]]])
                    }
                    await connection.close()
                }
            }
            try await group.waitForAll()
        }
        let final = try await library.token()
        while let reply = try await readerReplies.next() {
            for result in reply.results { readerHeld = result.applied(to: readerHeld) }
            if reply.token == final { break }
        }
        #expect(readerHeld == (try await library.fetchIds()))
        let residentAfter = try #require(library.daemon.residentKilobytes)
        #expect(residentAfter - residentBefore < 64 * 1024, "daemon grew from \(residentBefore) kB to \(residentAfter) kB")

        let decoder = JSONDecoder()
        var held = try decoder.decode(ObserveEnvelope.self, from: Data(try #require(stalled.receive()).utf8)).parameters.results[0].ids ?? []
        var sawReload = false, stalledCount = 0
        while let message = stalled.receive() {
            let reply = try decoder.decode(ObserveEnvelope.self, from: Data(message.utf8)).parameters
            stalledCount += 1
            for result in reply.results {
                if result.hasIncrementalChanges == false { sawReload = true }
                held = result.applied(to: held)
            }
            if reply.token == final { break }
        }
        #expect(sawReload)
        #expect(stalledCount < Self.changeCount)
        let fresh = try await library.fetchIds(AssetQuery(sort: [SortDescriptor(key: "isFavorite")]))
        #expect(held == fresh)
        stalled.close()
        await reader.close()
    }
}

/// A raw varlink reply carrying Observe parameters.
struct ObserveEnvelope: Decodable {
    var parameters: FetchReply
}
