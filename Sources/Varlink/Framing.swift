import CompactJSON
import Foundation
import NIOCore

/// The framing failed: the peer sent more bytes than one message may have without ending it.
public enum VarlinkFramingError: Error, Sendable, Hashable {
    /// No NUL terminator within `limit` bytes.
    case messageTooLarge(limit: Int)
}

/// Splits the byte stream into varlink messages: each message ends with one NUL byte, which is dropped.
///
/// Throws `VarlinkFramingError.messageTooLarge` once a message exceeds `maximumMessageSize` bytes
/// (not counting its NUL), so an unterminated message never buffers without bound. Bytes left
/// without a terminator at end of input are an incomplete message and are discarded.
///
/// While `rawBytes` expects the raw bytes of an upgraded call, those pass through unframed, as they arrive.
struct VarlinkFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    let maximumMessageSize: Int
    let rawBytes: RawByteCount?
    /// Readable bytes already searched for a NUL, so each byte is searched once.
    private var searchedBytes = 0

    init(maximumMessageSize: Int, rawBytes: RawByteCount? = nil) {
        self.maximumMessageSize = maximumMessageSize
        self.rawBytes = rawBytes
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if let rawBytes, buffer.readableBytes > 0, let count = rawBytes.take(upTo: buffer.readableBytes) {
            searchedBytes = 0
            context.fireChannelRead(Self.wrapInboundOut(buffer.readSlice(length: count)!))
            return .continue
        }
        let found: Int? = buffer.withUnsafeReadableBytes { bytes in
            guard let start = bytes.baseAddress, bytes.count > searchedBytes else { return nil }
            return memchr(start + searchedBytes, 0, bytes.count - searchedBytes).map { UnsafeRawPointer($0) - start }
        }
        guard let terminatorOffset = found else {
            searchedBytes = buffer.readableBytes
            if searchedBytes > maximumMessageSize {
                throw VarlinkFramingError.messageTooLarge(limit: maximumMessageSize)
            }
            return .needMoreData
        }
        let length = terminatorOffset
        searchedBytes = 0
        if length > maximumMessageSize {
            throw VarlinkFramingError.messageTooLarge(limit: maximumMessageSize)
        }
        let message = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(Self.wrapInboundOut(message))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.clear()
        return .needMoreData
    }
}

extension ByteBuffer {
    /// Appends one framed message: the JSON bytes and the NUL that ends them.
    mutating func writeVarlinkMessage(json: some Collection<UInt8>) {
        reserveCapacity(minimumWritableBytes: json.count + 1)
        writeBytes(json)
        writeInteger(UInt8(0))
    }

    /// One framed message whose JSON `write` produces.
    static func varlinkMessage(estimatedByteCount: Int = 1 << 12, _ write: (inout JSONWriter) -> Void) -> ByteBuffer {
        var json = JSONWriter(capacity: estimatedByteCount)
        write(&json)
        var buffer = ByteBuffer()
        buffer.writeVarlinkMessage(json: json.bytes)
        return buffer
    }
}
