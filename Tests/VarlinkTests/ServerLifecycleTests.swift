import Foundation
import NIOPosix
import Testing
import Varlink

#if canImport(Glibc)
import Glibc
#endif

/// Taking the socket path, and giving it back on stop.
@Suite(.timeLimit(.minutes(5))) struct ServerLifecycleTests {
    private func makeServer(socketPath: String, socketPermissions: UInt16 = 0o666) -> VarlinkServer {
        VarlinkServer(
            socketPath: socketPath,
            info: testServiceInfo,
            interfaces: [TestInterface()],
            socketPermissions: socketPermissions,
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: quietLogger
        )
    }

    /// Leaves a socket file at `path` that no server listens on, as a crashed server does.
    private func makeStaleSocket(at path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(withUnixAddress(path) { bind(descriptor, $0, $1) } == 0)
    }

    private func fileMode(_ path: String) throws -> UInt16? {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.uint16Value
    }

    @Test func stoppingClosesConnectionsCancelsCallsAndRemovesTheSocketFile() async throws {
        let interface = TestInterface()
        try await withTemporaryDirectory { directory in
            let socketPath = directory + "/nested/dirs/test.sock"
            let server = VarlinkServer(
                socketPath: socketPath,
                info: testServiceInfo,
                interfaces: [interface],
                logger: quietLogger
            )
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (listening, ready) = AsyncStream.makeStream(of: Void.self)
                group.addTask {
                    defer { ready.finish() }
                    try await server.run { ready.yield() }
                }
                for await _ in listening { break }
                #expect(FileManager.default.fileExists(atPath: socketPath))

                try await RawClient.withConnection(to: socketPath) { client in
                    try await client.send(#"{"method":"org.example.test.Wait"}"#)
                    await interface.waitFor(.started("Wait"))
                    group.cancelAll()
                    try await group.waitForAll()
                    #expect(try await client.isClosedByServer())
                }
            }
            await interface.waitFor(.cancelled("Wait"))
            #expect(!FileManager.default.fileExists(atPath: socketPath))
            await #expect(throws: VarlinkConnectionError.self) {
                try await VarlinkConnection.connect(socketPath: socketPath)
            }
        }
    }

    @Test func stoppingWhileClientsConnectClosesEveryAcceptedConnection() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = directory + "/busy.sock"
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (listening, ready) = AsyncStream.makeStream(of: Void.self)
                group.addTask {
                    defer { ready.finish() }
                    try await makeServer(socketPath: socketPath).run { ready.yield() }
                }
                for await _ in listening { break }
                await withTaskGroup(of: Void.self) { clients in
                    for index in 0..<200 {
                        clients.addTask {
                            // Refused once the server has stopped; otherwise closed by the server.
                            _ = try? await RawClient.withConnection(to: socketPath) { client in
                                try await client.isClosedByServer()
                            }
                        }
                        if index == 100 {
                            group.cancelAll()
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(!FileManager.default.fileExists(atPath: socketPath))
        }
    }

    @Test func aStaleSocketFileIsReplaced() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let socketPath = directory + "/stale.sock"
            try makeStaleSocket(at: socketPath)
            #expect(FileManager.default.fileExists(atPath: socketPath))

            try await withRunningServer(makeServer(socketPath: socketPath)) {
                let connection = try await VarlinkConnection.connect(socketPath: socketPath)
                #expect(try await connection.call("org.example.test.Echo") == [:])
                await connection.close()
            }
        }
    }

    @Test func aSecondServerRefusesToTakeOverALiveSocket() async throws {
        try await withServer([TestInterface()]) { socketPath in
            let second = makeServer(socketPath: socketPath)
            await #expect(throws: VarlinkServerError.socketInUse(path: socketPath)) {
                try await second.run()
            }
            let connection = try await VarlinkConnection.connect(socketPath: socketPath)
            #expect(try await connection.call("org.example.test.Echo") == [:])
            await connection.close()
        }
    }

    @Test func aFileThatIsNotASocketIsLeftAlone() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/not-a-socket"
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
            await #expect(throws: (any Error).self) {
                try await makeServer(socketPath: path).run()
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        }
    }

    @Test func theSocketFileGetsTheRequestedPermissions() async throws {
        try await withTemporaryDirectory { directory in
            let socketPath = directory + "/private.sock"
            try await withRunningServer(makeServer(socketPath: socketPath, socketPermissions: 0o600)) {
                let mode = try fileMode(socketPath)
                #expect(mode == 0o600)
            }
            let openPath = directory + "/open.sock"
            try await withRunningServer(makeServer(socketPath: openPath)) {
                let mode = try fileMode(openPath)
                #expect(mode == 0o666)
            }
        }
    }
}
