import FuzzSupport
import NIOCore
import NIOEmbedded
import PhotolibProtocol
@testable import Varlink

func receive(_ input: UnsafeRawBufferPointer) {
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
    static func main() throws {
        try FuzzTarget.run(receive)
    }
}
