import FuzzSupport
import NIOCore
import NIOEmbedded
import PhotolibProtocol

@testable import Varlink

/// Every way a call nests: arrays and objects in its parameters, in a query's fields, and in the fields that send the
/// message to `JSONDecoder` instead (a method that is not a string), and a message that is no object.
let callNesting = DeepNesting([
    .init("[", "]", lead: #"{"method":"io.photolibd.Library.FetchAssets","parameters":{"query":"#, trail: "}}"),
    .init(#"{"a":"#, "}", lead: #"{"method":"io.photolibd.Library.FetchAssets","parameters":"#, trail: "}"),
    .init(
        #"[{"a":"#, "}]", lead: #"{"method":"io.photolibd.Library.PerformChanges","parameters":{"changes":"#,
        trail: "}}"),
    .init("[", "]", lead: #"{"method":"#, trail: "}"),
    .init(#"{"a":"#, "}", lead: #"{"method":1,"parameters":"#, trail: "}"),
    .init("[", "]"),
    .init(#"{"a":["#, "]}", lead: #"{"more":"#, trail: #","method":"io.photolibd.Library.Observe"}"#),
])

func receive(_ input: UnsafeRawBufferPointer) {
    // A message in deep-nesting mode is read whole, as a message the daemon's own limit (16 MiB) lets through.
    if let message = callNesting.expand(input) {
        decodeCall(ByteBuffer(bytes: message))
        return
    }
    guard let first = input.first else { return }
    let pieceSize = Int(first % 64) + 1
    let channel = EmbeddedChannel(handler: ByteToMessageHandler(VarlinkFrameDecoder(maximumMessageSize: 4096)))
    defer { _ = try? channel.finish() }
    var offset = 1
    while offset < input.count {
        let end = min(offset + pieceSize, input.count)
        guard (try? channel.writeInbound(ByteBuffer(bytes: input[offset..<end]))) != nil else { return }
        while let frame = try? channel.readInbound(as: ByteBuffer.self) { decodeCall(frame) }
        offset = end
    }
}

private func decodeCall(_ frame: ByteBuffer) {
    guard case .call(let call) = ReceivedMessage(frame: frame) else { return }
    _ = call.parameters
    _ = try? call.decodeParameters(FetchAssetsParameters.self)
    _ = try? call.decodeParameters(PerformChangesParameters.self)
    _ = try? call.decodeParameters(ObserveParameters.self)
    _ = try? call.decodeParameters(RequestImageParameters.self)
    _ = try? call.decodeParameters(ImportFilesParameters.self)
}

@main
struct FuzzVarlink {
    /// Feeds each input as the bytes arriving on a varlink connection, in pieces whose sizes the first byte
    /// chooses; every message the framing cuts out is read as a call, and its parameters as several methods' types.
    /// An input in deep-nesting mode stands for one message nested as deep as it asks.
    static func main() throws {
        try FuzzTarget.run(receive)
    }
}
