import Testing
import Varlink

/// Clients that break the protocol: each is answered or disconnected, and the server serves on.
@Suite(.timeLimit(.minutes(5))) struct ProtocolViolationTests {
    /// The server still answers a new connection.
    private func expectServerStillServes(_ socketPath: String) async throws {
        let connection = try await VarlinkConnection.connect(socketPath: socketPath)
        #expect(try await connection.call("org.example.test.Echo", parameters: ["value": "ok"]) == ["value": "ok"])
        await connection.close()
    }

    @Test func unparsableBytesCloseThatConnectionOnly() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method": "org.example.test.Echo""#)
                #expect(try await client.isClosedByServer())
            }
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.write([0xFF, 0xFE, 0x7B, 0x00])
                #expect(try await client.isClosedByServer())
            }
            try await expectServerStillServes(socketPath)
        }
    }

    @Test func jsonThatIsNotAnObjectClosesTheConnection() async throws {
        try await withServer([TestInterface()]) { socketPath in
            for message in [#"["org.example.test.Echo"]"#, "42", #""text""#, "null", ""] {
                try await RawClient.withConnection(to: socketPath) { client in
                    try await client.send(message)
                    #expect(try await client.isClosedByServer())
                }
            }
            try await expectServerStillServes(socketPath)
        }
    }

    @Test func anObjectWithoutAStringMethodIsAnsweredWithInvalidParameter() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(
                    #"{"parameters":{}}"#,
                    #"{"method":42}"#,
                    #"{"method":null}"#,
                    #"{"method":"org.example.test.Echo","parameters":{"value":"still served"}}"#
                )
                let invalidMethod: JSONValue = [
                    "error": "org.varlink.service.InvalidParameter", "parameters": ["parameter": "method"],
                ]
                #expect(try await client.receiveJSON() == invalidMethod)
                #expect(try await client.receiveJSON() == invalidMethod)
                #expect(try await client.receiveJSON() == invalidMethod)
                #expect(try await client.receiveJSON() == ["parameters": ["value": "still served"]])
            }
        }
    }

    @Test func malformedCallFieldsAreAnsweredWithInvalidParameter() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(
                    #"{"method":"org.example.test.Echo","parameters":[1]}"#,
                    #"{"method":"org.example.test.Echo","more":"yes"}"#,
                    #"{"method":"org.example.test.Echo","oneway":1}"#,
                    #"{"method":"org.example.test.Echo","upgrade":true}"#
                )
                for parameter in ["parameters", "more", "oneway", "upgrade"] {
                    let expected: JSONValue = [
                        "error": "org.varlink.service.InvalidParameter",
                        "parameters": ["parameter": .string(parameter)],
                    ]
                    #expect(try await client.receiveJSON() == expected)
                }
            }
        }
    }

    @Test func aMessageLongerThanTheMaximumClosesTheConnection() async throws {
        try await withServer([TestInterface()], maximumMessageSize: 1024) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.write(Array(#"{"method":"org.example.test.Echo","parameters":{"value":""#.utf8))
                try await client.write(Array(repeating: UInt8(ascii: "x"), count: 4096))
                #expect(try await client.isClosedByServer())
            }
            try await RawClient.withConnection(to: socketPath) { client in
                let long = String(repeating: "y", count: 2000)
                try await client.send(#"{"method":"org.example.test.Echo","parameters":{"value":"\#(long)"}}"#)
                #expect(try await client.isClosedByServer())
            }
            // A message just within the limit is served.
            try await RawClient.withConnection(to: socketPath) { client in
                let prefix = #"{"method":"org.example.test.Echo","parameters":{"value":""#
                let value = String(repeating: "z", count: 1024 - prefix.utf8.count - 3)
                try await client.send(prefix + value + #""}}"#)
                #expect(try await client.receiveJSON() == ["parameters": ["value": .string(value)]])
            }
            try await expectServerStillServes(socketPath)
        }
    }

    @Test func aCallNestedFiftyThousandDeepIsAnsweredWithInvalidParameter() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                let deep = String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000)
                let deepArray = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
                try await client.send(
                    #"{"method":"org.example.test.Echo","parameters":\#(deep)}"#,
                    #"{"method":\#(deepArray),"parameters":{}}"#,
                    #"{"method":"org.example.test.Echo","parameters":{"value":"still served"}}"#
                )
                for parameter in ["parameters", "method"] {
                    let expected: JSONValue = [
                        "error": "org.varlink.service.InvalidParameter", "parameters": ["parameter": .string(parameter)],
                    ]
                    #expect(try await client.receiveJSON() == expected)
                }
                #expect(try await client.receiveJSON() == ["parameters": ["value": "still served"]])
            }
            try await expectServerStillServes(socketPath)
        }
    }
}

