import Foundation
import Testing
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// Calls answered by a running server, seen through the library's client and through raw bytes.
@Suite(.timeLimit(.minutes(5))) struct ServerCallTests {
    @Test func getInfoListsTheServiceInterfaceAndEveryRegisteredInterface() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            let info = try await connection.call("org.varlink.service.GetInfo")
            #expect(info["vendor"] == "Example")
            #expect(info["product"] == "varlink-tests")
            #expect(info["version"] == "1.0")
            #expect(info["url"] == "https://example.org/varlink-tests")
            #expect(info["interfaces"] == ["org.varlink.service", "org.example.test"])
            await connection.close()
        }
    }

    @Test func getInterfaceDescriptionReturnsTheIDLOfEachInterface() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            let test = try await connection.call(
                "org.varlink.service.GetInterfaceDescription",
                parameters: ["interface": "org.example.test"]
            )
            #expect(test["description"]?.stringValue == interface.description)

            let service = try await connection.call(
                "org.varlink.service.GetInterfaceDescription",
                parameters: ["interface": "org.varlink.service"]
            )
            let serviceIDL = try #require(service["description"]?.stringValue)
            #expect(serviceIDL.contains("interface org.varlink.service\n"))
            #expect(serviceIDL.contains("method GetInfo() -> (\n  vendor: string,"))
            #expect(serviceIDL.contains("method GetInterfaceDescription(interface: string) -> (description: string)"))
            for error in [
                "InterfaceNotFound (interface: string)", "MethodNotFound (method: string)",
                "MethodNotImplemented (method: string)", "InvalidParameter (parameter: string)",
                "PermissionDenied ()", "ExpectedMore ()",
            ] {
                #expect(serviceIDL.contains("error \(error)"))
            }
            await connection.close()
        }
    }

    @Test func unknownInterfacesAndServiceMethodsAreStandardErrors() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            await #expect(throws: VarlinkError.interfaceNotFound("org.example.missing")) {
                try await connection.call(
                    "org.varlink.service.GetInterfaceDescription",
                    parameters: ["interface": "org.example.missing"]
                )
            }
            await #expect(throws: VarlinkError.interfaceNotFound("org.example.missing")) {
                try await connection.call("org.example.missing.Method")
            }
            await #expect(throws: VarlinkError.methodNotFound("org.varlink.service.Frobnicate")) {
                try await connection.call("org.varlink.service.Frobnicate")
            }
            await #expect(throws: VarlinkError.methodNotFound("org.example.test.Frobnicate")) {
                try await connection.call("org.example.test.Frobnicate")
            }
            await connection.close()
        }
    }

    @Test func typedCallsDecodeTheirReplies() async throws {
        struct Operands: Codable, Sendable { let a, b: Int }
        struct Sum: Codable, Sendable { let sum: Int }
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            let reply = try await connection.call(
                "org.example.test.Add",
                parameters: Operands(a: 40, b: 2),
                returning: Sum.self
            )
            #expect(reply.sum == 42)
            await connection.close()
        }
    }

    @Test func wrongParameterTypesNameTheOffendingParameter() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            let cases: [(JSONValue, String)] = [
                (["query": ["limit": "ten"], "changes": []], "query.limit"),
                (["query": ["limit": 10], "changes": [["op": "insert"], ["op": "delete"], ["op": 3]]], "changes.2.op"),
                (["query": ["limit": 10], "changes": [["op": "insert"], ["op": "frobnicate"]]], "changes.1.op"),
                (["query": ["limit": 10], "changes": [["op": "insert"], [:]]], "changes.1.op"),
                (["query": ["limit": nil], "changes": []], "query.limit"),
                (["query": ["limit": 10, "filter": 5], "changes": []], "query.filter"),
                (["query": ["limit": 10]], "changes"),
                ([:], "query"),
            ]
            for (parameters, parameter) in cases {
                await #expect(throws: VarlinkError.invalidParameter(parameter)) {
                    try await connection.call("org.example.test.Query", parameters: parameters)
                }
            }
            let count = try await connection.call(
                "org.example.test.Query",
                parameters: ["query": ["limit": 1], "changes": [["op": "insert"], ["op": "delete"]]]
            )
            #expect(count == ["count": 1])
            await connection.close()
        }
    }

    @Test func readableParametersAreReadWithoutJSONDecoder() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(
                    #"{ "more": false, "parameters" : { "b": 3, "skip": [{"x": null}], "a": 2 }, "method": "org.example.test.Sum" }"#,
                    #"{"method":"org.example.test.Sum","parameters":{"a":2}}"#
                )
                #expect(try await client.receiveJSON() == ["parameters": ["sum": 5]])
                // What the reader refuses goes to `JSONDecoder`, which explains it (here it refuses everything).
                #expect(
                    try await client.receiveJSON()
                        == ["error": "org.varlink.service.InvalidParameter", "parameters": ["parameter": "parameters"]]
                )
            }
        }
    }

    @Test func absentOrNullParametersCountAsAnEmptyObject() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(
                    #"{"method":"org.example.test.Echo"}"#,
                    #"{"method":"org.example.test.Echo","parameters":null}"#,
                    #"{"method":"org.example.test.Query"}"#
                )
                #expect(try await client.receiveJSON() == ["parameters": [:]])
                #expect(try await client.receiveJSON() == ["parameters": [:]])
                #expect(
                    try await client.receiveJSON()
                        == ["error": "org.varlink.service.InvalidParameter", "parameters": ["parameter": "query"]]
                )
            }
        }
    }

    @Test func pipelinedCallsAreAnsweredInOrderAndOnewayCallsGetNoReply() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(
                    #"{"method":"org.example.test.Add","parameters":{"a":1,"b":2}}"#,
                    #"{"method":"org.example.test.Echo","parameters":{"value":"dropped"},"oneway":true}"#,
                    #"{"method":"org.example.test.Count","parameters":{"n":3},"more":true}"#,
                    #"{"method":"org.example.test.Fail","oneway":true}"#,
                    #"{"method":"org.example.test.Echo","parameters":{"value":"last"}}"#
                )
                #expect(try await client.receiveJSON() == ["parameters": ["sum": 3]])
                #expect(try await client.receiveJSON() == ["parameters": ["i": 0], "continues": true])
                #expect(try await client.receiveJSON() == ["parameters": ["i": 1], "continues": true])
                #expect(try await client.receiveJSON() == ["parameters": ["i": 2]])
                #expect(try await client.receiveJSON() == ["parameters": ["value": "last"]])
            }
        }
    }

    @Test func callsOnOneConnectionAreHandledOneAfterAnother() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method":"org.example.test.Gate"}"#, #"{"method":"org.example.test.Echo"}"#)
                await interface.waitFor(.started("Gate"))
                interface.openGate()
                #expect(await interface.nextEvents(2) == [.passedGate, .started("Echo")])
                #expect(try await client.receiveJSON() == ["parameters": [:]])
                #expect(try await client.receiveJSON() == ["parameters": [:]])
            }
        }
    }

    @Test func aStuckCallOnOneConnectionDoesNotDelayAnother() async throws {
        let interface = TestInterface()
        try await withServer([interface]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { stuck in
                try await stuck.send(#"{"method":"org.example.test.Wait"}"#)
                await interface.waitFor(.started("Wait"))

                let other = try await VarlinkConnection.connect(socketPath: socketPath)
                #expect(try await other.call("org.example.test.Echo", parameters: ["value": 1]) == ["value": 1])
                await other.close()
            }
            await interface.waitFor(.cancelled("Wait"))
        }
    }

    @Test func moreCallsStreamEveryReplyToTheClient() async throws {
        struct Counter: Codable, Sendable { let i: Int }
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            var received: [Int] = []
            let replies = connection.stream("org.example.test.Count", parameters: ["n": 5], returning: Counter.self)
            for try await reply in replies {
                received.append(reply.i)
            }
            #expect(received == [0, 1, 2, 3, 4])
            // The connection serves further calls after the stream.
            #expect(try await connection.call("org.example.test.Echo", parameters: ["value": 2]) == ["value": 2])
            await connection.close()
        }
    }

    @Test func errorRepliesCarryTheirNameAndParameters() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            await #expect(throws: VarlinkError("org.example.test.NotFound", parameters: ["id": 7])) {
                try await connection.call("org.example.test.Fail")
            }
            await connection.close()

            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method":"org.example.test.Refuse"}"#, #"{"method":"org.example.test.Fail"}"#)
                #expect(try await client.receiveJSON() == ["error": "org.example.test.Refused", "parameters": [:]])
                #expect(
                    try await client.receiveJSON()
                        == ["error": "org.example.test.NotFound", "parameters": ["id": 7]]
                )
            }
        }
    }

    @Test func otherHandlerErrorsBecomeTheInterfacesInternalError() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            let error = await #expect(throws: VarlinkError.self) {
                try await connection.call("org.example.test.Crash")
            }
            #expect(error?.name == "org.example.test.InternalError")
            #expect(error?.parameters["reason"]?.stringValue?.contains("Failure") == true)

            let silent = await #expect(throws: VarlinkError.self) {
                try await connection.call("org.example.test.Silent")
            }
            #expect(silent?.name == "org.example.test.InternalError")

            // A reply after the final one is refused, and the client sees only the first.
            #expect(try await connection.call("org.example.test.ReplyTwice") == [:])
            #expect(try await connection.call("org.example.test.Echo") == [:])
            await connection.close()
        }
    }

    @Test func continuingRepliesToACallWithoutMoreAnswerExpectedMore() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            await #expect(throws: VarlinkError.expectedMore()) {
                try await connection.call("org.example.test.StreamWithoutMore")
            }
            await connection.close()
        }
    }

    @Test func handlersSeeTheCallersCredentials() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            let peer = try await connection.call("org.example.test.WhoAmI")
            #expect(peer["uid"] == .int(Int(getuid())))
            #expect(peer["gid"] == .int(Int(getgid())))
            #expect(peer["pid"] == .int(Int(getpid())))
            await connection.close()
        }
    }

    @Test func repliesAreJSONObjectsEachFollowedByOneNUL() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                try await client.send(#"{"method":"org.example.test.Echo","parameters":{"path":"/a/b"}}"#)
                #expect(try await client.receive() == #"{"parameters":{"path":"/a/b"}}"#)
            }
        }
    }

    @Test func messagesSplitAcrossWritesAreReassembled() async throws {
        try await withServer([TestInterface()]) { socketPath in
            try await RawClient.withConnection(to: socketPath) { client in
                let bytes = Array(#"{"method":"org.example.test.Add","parameters":{"a":20,"b":22}}"#.utf8) + [0]
                for chunk in stride(from: 0, to: bytes.count, by: 7) {
                    try await client.write(Array(bytes[chunk..<min(chunk + 7, bytes.count)]))
                }
                #expect(try await client.receiveJSON() == ["parameters": ["sum": 42]])
            }
        }
    }
}
