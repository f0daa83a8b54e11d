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
        guard let terminatorOffset = buffer.offsetOfMessageEnd(searchingFrom: searchedBytes) else {
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

/// Bytes of one reply, as they arrived; `isLast` when the NUL that ends the reply came with them (and was dropped).
struct ReplyPart: Sendable {
    let bytes: ByteBuffer
    let isLast: Bool
}

/// The client's framing: passes each reply on in parts as its bytes arrive, so that a long reply can be read
/// while the rest of it is still coming (see `JSONArrayLedObject`).
///
/// Throws `VarlinkFramingError.messageTooLarge` once a reply exceeds `maximumMessageSize` bytes.
struct VarlinkReplyDecoder: ByteToMessageDecoder {
    typealias InboundOut = ReplyPart

    let maximumMessageSize: Int
    /// Bytes of the current reply passed on so far.
    private var replyByteCount = 0

    init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard buffer.readableBytes > 0 else { return .needMoreData }
        let end = buffer.offsetOfMessageEnd(searchingFrom: 0)
        let length = end ?? buffer.readableBytes
        replyByteCount += length
        if replyByteCount > maximumMessageSize {
            throw VarlinkFramingError.messageTooLarge(limit: maximumMessageSize)
        }
        let part = ReplyPart(bytes: buffer.readSlice(length: length)!, isLast: end != nil)
        if part.isLast {
            buffer.moveReaderIndex(forwardBy: 1)
            replyByteCount = 0
        }
        context.fireChannelRead(Self.wrapInboundOut(part))
        return part.isLast ? .continue : .needMoreData
    }
}

extension ByteBuffer {
    /// Where the NUL that ends a message lies among the readable bytes, searching from `offset` on.
    func offsetOfMessageEnd(searchingFrom offset: Int) -> Int? {
        withUnsafeReadableBytes { bytes in
            guard let start = bytes.baseAddress, bytes.count > offset else { return nil }
            return memchr(start + offset, 0, bytes.count - offset).map { UnsafeRawPointer($0) - start }
        }
    }

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
