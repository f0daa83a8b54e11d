import Foundation
import Glibc
import Testing
import TestSupport
import Varlink

/// A raw socket client that writes bytes exactly as given.
struct RawClient {
    let descriptor: Int32

    init(socketPath: String) throws {
        descriptor = try connectUnixStream(to: socketPath)
        var timeout = timeval(tv_sec: 60, tv_usec: 0)  // a busy machine can be slow; a hang still fails
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Reads until a NUL (returning the message) or end of stream (returning nil).
    func receive() -> String? {
        var message: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {
            if byte == 0 { return String(decoding: message, as: UTF8.self) }
            message.append(byte)
        }
        return nil
    }

    func close() { Glibc.close(descriptor) }
}

@Suite(.serialized)
struct ProtocolTests {
    @Test func introspectionListsAndDescribesEveryInterface() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let connection = try await daemon.connect()
        let info = try await connection.call("org.varlink.service.GetInfo", parameters: [:])
        let interfaces = info["interfaces"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Set(interfaces) == ["org.varlink.service", "io.photolibd.Library", "io.photolibd.Images", "io.photolibd.Import"])
        for name in interfaces {
            let description = try await connection.call("org.varlink.service.GetInterfaceDescription",
                                                        parameters: ["interface": .string(name)])
            #expect(description["description"]?.stringValue?.contains("interface \(name)\n") == true)
        }
        await connection.close()
    }

    @Test func malformedMessagesGetErrorsOrACloseAndOthersAreStillServed() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let bystander = try await daemon.connect()

        let garbage = try RawClient(socketPath: daemon.socketPath)
        garbage.send(Array("{not json".utf8) + [0])
        #expect(garbage.receive() == nil)
        garbage.close()

        let noNul = try RawClient(socketPath: daemon.socketPath)
        noNul.send(Array(#"{"method": "org.varlink.service.GetInfo"}"#.utf8))
        noNul.close()

        let wrongTypes = try RawClient(socketPath: daemon.socketPath)
        wrongTypes.send(Array(#"{"method": "io.photolibd.Library.FetchAssets", "parameters": {"query": {"limit": "ten"}}}"#.utf8) + [0])
        let typeError = try #require(wrongTypes.receive())
        #expect(typeError.contains("org.varlink.service.InvalidParameter"))
        #expect(typeError.contains("query.limit"))
        wrongTypes.send(Array(#"{"method": "io.photolibd.Library.Teleport"}"#.utf8) + [0])
        #expect(wrongTypes.receive()?.contains("org.varlink.service.MethodNotFound") == true)
        wrongTypes.send(Array(#"{"method": "io.nowhere.Thing.Do"}"#.utf8) + [0])
        #expect(wrongTypes.receive()?.contains("org.varlink.service.InterfaceNotFound") == true)
        wrongTypes.send(Array(#"{"method": "io.photolibd.Images.RequestImage", "parameters": {"assetId": "x"}}"#.utf8) + [0])
        #expect(wrongTypes.receive()?.contains("io.photolibd.Images.NotFound") == true)
        wrongTypes.close()

        let vanishing = try RawClient(socketPath: daemon.socketPath)
        vanishing.send(Array(#"{"method": "io.photolibd.Library.Observe", "more": true}"#.utf8) + [0])
        _ = vanishing.receive()
        vanishing.close()

        let info = try await bystander.call("org.varlink.service.GetInfo", parameters: [:])
        #expect(info["product"] == "photolibd")
        #expect(try await bystander.call("io.photolibd.Library.FetchAssets", parameters: ["query": [:]])["count"] == 0)
        #expect(daemon.isRunning)
        await bystander.close()
    }

    @Test func aMessageNestedFiftyThousandDeepIsRefusedAndTheDaemonServesOn() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let client = try RawClient(socketPath: daemon.socketPath)
        let deep = String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000)
        for method in ["io.photolibd.Library.FetchAssets", "io.photolibd.Library.PerformChanges", "org.varlink.service.GetInfo"] {
            client.send(Array(#"{"method": "\#(method)", "parameters": {"query": \#(deep)}}"#.utf8) + [0])
            let refusal = try #require(client.receive())
            #expect(refusal.contains("org.varlink.service.InvalidParameter"))
            #expect(refusal.contains(#""parameter":"parameters""#))
        }
        client.send(Array(#"{"method": "io.photolibd.Library.FetchAssets", "parameters": {"query": {}}}"#.utf8) + [0])
        #expect(client.receive()?.contains(#""count":0"#) == true)
        client.close()
        #expect(daemon.isRunning)
        #expect(try await daemon.stop() == 0)
    }

    @Test func sigtermStopsGracefullyAndRemovesTheSocket() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        #expect(try await daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test func aRelativeConfigPathIsTakenFromTheDaemonsWorkingDirectory() async throws {
        let daemon = try DaemonProcess()
        let elsewhere = daemon.directory + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try await daemon.start(configArgument: "../photolibd.conf", workingDirectory: elsewhere)
        #expect(FileManager.default.fileExists(atPath: daemon.libraryPath))
        #expect(try await daemon.stop() == 0)
    }
}
