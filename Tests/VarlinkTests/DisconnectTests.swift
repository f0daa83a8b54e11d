import Testing
import Varlink

/// Clients that go away, or stop sending or reading, while their calls are in progress.
@Suite(.timeLimit(.minutes(5))) struct DisconnectTests {
    @Test func hangingUpMidCallCancelsTheHandler() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method":"org.example.test.Wait"}"#)
                await interface.waitFor(.started("Wait"))
            }
            await interface.waitFor(.cancelled("Wait"))

            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            #expect(try await connection.call("org.example.test.Echo") == [:])
            await connection.close()
        }
    }

    @Test func hangingUpMidStreamCancelsTheHandler() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method":"org.example.test.Wait","more":true}"#)
                await interface.waitFor(.started("Wait"))
            }
            await interface.waitFor(.cancelled("Wait"))
        }
    }

    @Test func aClientThatClosesItsSendingSideStillGetsItsReply() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method":"org.example.test.Gate"}"#)
                try await client.closeSendingSide()
                await interface.waitFor(.started("Gate"))
                interface.openGate()
                #expect(try await client.receiveJSON() == ["parameters": [:]])
                #expect(try await client.isClosedByServer())
            }
        }
    }

    @Test func aReplyLargerThanTheSocketBufferReachesAHalfClosedClientWhole() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                let value = String(repeating: "v", count: 900_000)
                try await client.send(#"{"method":"org.example.test.Echo","parameters":{"value":"\#(value)"}}"#)
                try await client.closeSendingSide()
                #expect(try await client.receiveJSON() == ["parameters": ["value": .string(value)]])
                #expect(try await client.isClosedByServer())
            }
        }
    }

    @Test func pipelinedCallsBeforeHalfClosureAreAllAnswered() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(
                    #"{"method":"org.example.test.Add","parameters":{"a":1,"b":1}}"#,
                    #"{"method":"org.example.test.Add","parameters":{"a":2,"b":2}}"#
                )
                try await client.closeSendingSide()
                #expect(try await client.receiveJSON() == ["parameters": ["sum": 2]])
                #expect(try await client.receiveJSON() == ["parameters": ["sum": 4]])
                #expect(try await client.isClosedByServer())
            }
        }
    }

    @Test func closingTheSendingSideCancelsAStream() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method":"org.example.test.Wait","more":true}"#)
                await interface.waitFor(.started("Wait"))
                try await client.closeSendingSide()
                await interface.waitFor(.cancelled("Wait"))
                #expect(try await client.isClosedByServer())
            }
        }
    }

    @Test func aClientThatStopsReadingSuspendsTheSenderInsteadOfFillingMemory() async throws {
        let interface = TestInterface()
        let count = 256
        try await withServer([interface]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(
                    #"{"method":"org.example.test.Flood","parameters":{"size":1048576,"count":\#(count)},"more":true}"#
                )
                await interface.waitFor(.sent(1))
            }
            // With back-pressure the handler is stuck in `send` until the hang-up fails it; without,
            // it would have buffered all its replies. Sends go through until the event loop has written
            // the first reply and told the writer the channel is full: a few, or dozens when a busy
            // machine keeps the event loop waiting.
            var sent = 0
            for await event in interface.events {
                if case .sendFailed(let afterSending) = event {
                    sent = afterSending
                    break
                } else if event == .sent(count) {
                    sent = count
                    break
                }
            }
            #expect(sent <= count / 4)
        }
    }

    @Test func cancellingAClientCallClosesTheConnectionAndCancelsTheHandler() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    await #expect(throws: (any Error).self) {
                        try await connection.call("org.example.test.Wait")
                    }
                }
                await interface.waitFor(.started("Wait"))
                group.cancelAll()
                try await group.waitForAll()
            }
            await interface.waitFor(.cancelled("Wait"))
            await #expect(throws: VarlinkConnectionError.closed) {
                try await connection.call("org.example.test.Echo")
            }
            await connection.close()
        }
    }

    @Test func droppingAStreamEarlyClosesTheConnectionAndCancelsTheHandler() async throws {
        struct Chunk: Decodable, Sendable { let data: String }
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            do {
                let chunks = connection.stream(
                    "org.example.test.Flood",
                    parameters: ["size": 65536, "count": 1_000_000] as JSONValue,
                    returning: Chunk.self
                )
                for try await chunk in chunks {
                    #expect(chunk.data.count == 65536)
                    break
                }
            }
            await interface.waitFor(.started("Flood"))
            for await event in interface.events {
                if case .sendFailed = event { break }
            }
            await connection.close()
        }
    }

    @Test func cancellingStreamIterationClosesTheConnectionAndCancelsTheHandler() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    let replies = connection.stream(
                        "org.example.test.Wait",
                        parameters: [:] as JSONValue,
                        returning: JSONValue.self
                    )
                    await #expect(throws: (any Error).self) {
                        for try await _ in replies {}
                    }
                }
                await interface.waitFor(.started("Wait"))
                group.cancelAll()
                try await group.waitForAll()
            }
            await interface.waitFor(.cancelled("Wait"))
            await connection.close()
        }
    }
}
