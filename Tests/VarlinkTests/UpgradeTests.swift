import CompactJSON
import Foundation
import Testing
import Varlink

/// Upgraded calls: raw bytes after the reply, each way, then calls again on the same connection.
@Suite struct UpgradeTests {
    @Test func aDownloadArrivesWholeAndTheConnectionCarriesCallsAgain() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            let bytes = try await Self.onThread {
                let connection = try VarlinkRawConnection.connect(socketPath: socketPath)
                var results: [[UInt8]] = []
                for size in [3_000_000, 10] {
                    let reply = try connection.call("org.example.test.Download", parameters: ["size": .int(size)] as JSONValue,
                                                    returning: JSONValue.self)
                    #expect(reply == ["size": .int(size)])
                    var received = [UInt8](repeating: 0, count: size)
                    try received.withUnsafeMutableBytes { try connection.readRaw(exactly: $0) }
                    results.append(received)
                }
                return results
            }
            #expect(bytes[0] == (0..<3_000_000).map { UInt8($0 % 251) })
            #expect(bytes[1] == (0..<10).map { UInt8($0 % 251) })
        }
    }

    @Test func anUploadIsReadWholeAndAnsweredAfterItsBytes() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let sums = try await Self.onThread {
                let connection = try VarlinkRawConnection.connect(socketPath: socketPath)
                var sums: [JSONValue] = []
                for size in [5_000_000, 1] {
                    _ = try connection.call("org.example.test.Upload", parameters: ["size": .int(size)] as JSONValue,
                                            returning: JSONValue.self)
                    // Bytes that contain NULs: raw, not varlink messages.
                    let bytes = (0..<size).map { UInt8($0 % 251) }
                    try bytes.withUnsafeBytes { try connection.writeRaw($0) }
                    sums.append(try connection.readReply(returning: JSONValue.self))
                }
                return sums
            }
            let expected = (0..<5_000_000).reduce(0) { $0 + $1 % 251 }
            #expect(sums == [["sum": .int(expected)], ["sum": 0]])
        }
    }

    @Test func aClientThatHangsUpMidTransferEndsTheCallAndNothingElse() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            try await Self.onThread {
                let connection = try VarlinkRawConnection.connect(socketPath: socketPath)
                _ = try connection.call("org.example.test.Upload", parameters: ["size": 1000] as JSONValue,
                                        returning: JSONValue.self)
                try [UInt8](repeating: 1, count: 500).withUnsafeBytes { try connection.writeRaw($0) }
                connection.shutDown()
            }
            await interface.waitFor(.rawBytesFailed("Upload"))

            try await Self.onThread {
                let connection = try VarlinkRawConnection.connect(socketPath: socketPath)
                _ = try connection.call("org.example.test.Download", parameters: ["size": 100_000_000] as JSONValue,
                                        returning: JSONValue.self)
                var some = [UInt8](repeating: 0, count: 1000)
                try some.withUnsafeMutableBytes { try connection.readRaw(exactly: $0) }
                connection.shutDown()
            }
            await interface.waitFor(.rawBytesFailed("Download"))

            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            #expect(try await connection.call("org.example.test.Add", parameters: ["a": 1, "b": 2]) == ["sum": 3])
            await connection.close()
        }
    }

    @Test func anErrorReplyToAnUpgradedCallLeavesTheConnectionForCalls() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await Self.onThread {
                let connection = try VarlinkRawConnection.connect(socketPath: socketPath)
                #expect(throws: VarlinkError.invalidParameter("upgrade")) {
                    try connection.call("org.example.test.Add", parameters: ["a": 1, "b": 2] as JSONValue,
                                        returning: JSONValue.self)
                }
                let reply = try connection.call("org.example.test.Download", parameters: ["size": 4] as JSONValue,
                                                returning: JSONValue.self)
                #expect(reply == ["size": 4])
            }
        }
    }

    /// Runs blocking client work on a thread of its own, off Swift's cooperative pool.
    static func onThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
