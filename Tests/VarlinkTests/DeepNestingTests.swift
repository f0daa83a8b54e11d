import Foundation
import Testing

@testable import Varlink

/// Messages nested 100,000 deep, read by each of the server's two readers, are refused and the server serves on:
/// the one-pass reader (CompactJSON) stops at `JSONReader.maximumDepth`; a message it cannot take as a call is
/// explained by `JSONDecoder`, which refuses JSON nested deeper than 512 levels.
struct DeepNestingTests {
    static let depth = 100_000
    static let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    static let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)

    @Test func aCallNestedDeepIsRefusedByEitherReaderAndTheServerServesOn() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method":"org.example.test.Echo","parameters":\#(Self.arrays)}"#)
                #expect(
                    try await client.receiveJSON()
                        == ["error": "org.varlink.service.InvalidParameter", "parameters": ["parameter": "parameters"]])
            }
            // A method that is no string sends the message to JSONDecoder, which meets the nesting after it.
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method":1,"parameters":\#(Self.objects)}"#)
                #expect(try await client.isClosedByServer())
            }
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            #expect(try await connection.call("org.example.test.Echo", parameters: ["value": "ok"]) == ["value": "ok"])
            await connection.close()
        }
    }

    @Test func aJSONValueNestedDeepIsRefusedByJSONDecoder() {
        for text in [Self.objects, Self.arrays] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
        }
    }
}
