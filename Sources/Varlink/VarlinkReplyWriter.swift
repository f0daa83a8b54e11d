import CompactJSON
import Glibc
import NIOCore
import Synchronization

/// A handler broke the reply rules of its call.
public enum VarlinkReplyError: Error, Sendable, Hashable {
    /// A reply was sent after the call's final reply (the one without `continues`).
    case finalReplyAlreadySent(method: String)
    /// Raw bytes were sent other than after the final reply of an upgraded call.
    case notUpgraded(method: String)
}

/// Sends the replies of one call, in order.
///
/// `send` suspends while the client is not reading (back-pressure), so a slow reader never makes the
/// server buffer without bound. Replies to a `oneway` call are dropped. Send replies one at a time:
/// await each `send` before the next.
public struct VarlinkReplyWriter: Sendable {
    private let method: String
    private let more: Bool
    private let oneway: Bool
    private let upgrade: Bool
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let channel: any Channel
    private let progress = ReplyProgress()

    init(for call: VarlinkCall, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, channel: any Channel) {
        self.method = call.method
        self.more = call.more
        self.oneway = call.oneway
        self.upgrade = call.upgrade
        self.outbound = outbound
        self.channel = channel
    }

    /// Sends one reply; `continues: true` for every reply of a `more` call but the last.
    ///
    /// - Throws: `VarlinkError.expectedMore()` when `continues` is true but the call did not ask for
    ///   more: a handler that rethrows it answers the client with that standard error, which is the
    ///   right answer for a method that only streams. `VarlinkReplyError.finalReplyAlreadySent` after
    ///   the final reply. The channel's error when the connection is gone; `CancellationError` when
    ///   the call was cancelled.
    public func send<P: Encodable & Sendable>(_ parameters: P, continues: Bool = false) async throws {
        try await send(continues: continues) { try OutgoingReply.framed(parameters, continues: continues) }
    }

    /// Sends one reply that only writes itself (it has no `Encodable` form); as `send(_:continues:)` otherwise.
    ///
    /// A reply estimated at ``largeReplyByteCount`` or more (a million ids is 39 MB) is written off the event loop the
    /// connection is served on, which other connections share, so that they go on meanwhile.
    public func send(json parameters: some JSONWritable & Sendable, continues: Bool = false) async throws {
        guard parameters.estimatedByteCount >= Self.largeReplyByteCount else {
            return try await send(continues: continues) { .varlinkReply(parameters, continues: continues) }
        }
        try await send(continues: continues) {
            await withTaskExecutorPreference(globalConcurrentExecutor) { ByteBuffer.varlinkReply(parameters, continues: continues) }
        }
    }

    /// Sends one reply whose parameters `write` writes through `VarlinkReplyParts` as they are made, each part going
    /// out at once (a page of assets as its rows are read), rather than all at the end; as `send(_:continues:)`
    /// otherwise. The parts are sent without back-pressure: make them for a reply of bounded size.
    ///
    /// An error that `write` throws before a part has gone out is thrown as from any handler, to be answered with. After,
    /// the reply can no longer be told apart from an error, so the connection is closed first.
    public func send(inParts write: (VarlinkReplyParts) async throws -> Void, continues: Bool = false) async throws {
        if continues && !more {
            throw VarlinkError.expectedMore()
        }
        try progress.checkOpen(method: method)
        let parts = VarlinkReplyParts(channel: oneway ? nil : channel)
        do {
            try await write(parts)
            try await parts.finish(continues: continues)
            try progress.record(continues: continues, method: method)
        } catch {
            if parts.hasSent { try? await channel.close() }
            throw error
        }
    }

    /// The estimated size from which a reply is written off the event loop.
    public static let largeReplyByteCount = 1 << 20

    /// Sends `error` as the call's final reply.
    func send(_ error: VarlinkError) async throws {
        try await send(continues: false) { try OutgoingReply.framed(error) }
    }

    private func send(continues: Bool, framing frame: () async throws -> ByteBuffer) async throws {
        if continues && !more {
            throw VarlinkError.expectedMore()
        }
        let reply = oneway ? nil : try await frame()
        try progress.record(continues: continues, method: method)
        if let reply {
            try await outbound.write(reply)
        }
    }

    /// Whether the call's final reply has been sent.
    var hasSentFinalReply: Bool { progress.hasSentFinalReply }

    // MARK: Upgraded calls

    /// Sends `length` bytes of the open file `descriptor` from `offset`, raw, after the final reply of an upgraded
    /// call (with sendfile, so they never pass through the daemon's memory); returns once they are written. The
    /// descriptor stays the caller's to close.
    ///
    /// - Throws: `VarlinkReplyError.notUpgraded` outside of that order; the channel's error when the client hangs up.
    public func sendFile(_ descriptor: Int32, offset: Int, length: Int) async throws {
        guard upgrade, hasSentFinalReply else { throw VarlinkReplyError.notUpgraded(method: method) }
        guard length > 0 else { return }
        let copy = dup(descriptor)
        guard copy >= 0 else { throw IOError(errnoCode: errno, reason: "dup") }
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: copy)
        defer { try? handle.close() }
        // After the reply: the outbound writer has handed that to the channel, on its event loop, in order.
        let region = FileRegion(fileHandle: handle, readerIndex: offset, endIndex: offset + length)
        try await channel.writeAndFlush(IOData.fileRegion(region)).get()
    }

    /// Sends one more varlink message after the raw bytes of an upgraded call (the answer to what they carried),
    /// after which the connection carries calls again.
    public func sendAfterRawBytes<P: Encodable & Sendable>(_ parameters: P) async throws {
        guard upgrade, hasSentFinalReply else { throw VarlinkReplyError.notUpgraded(method: method) }
        try await outbound.write(try OutgoingReply.framed(parameters, continues: false))
    }

    /// Sends `error` after the raw bytes of an upgraded call, as ``sendAfterRawBytes(_:)`` sends a reply.
    public func sendAfterRawBytes(_ error: VarlinkError) async throws {
        guard upgrade, hasSentFinalReply else { throw VarlinkReplyError.notUpgraded(method: method) }
        try await outbound.write(try OutgoingReply.framed(error))
    }
}

/// Where one call is in its replies.
private final class ReplyProgress: Sendable {
    private let finalReplySent = Mutex(false)

    var hasSentFinalReply: Bool { finalReplySent.withLock { $0 } }

    /// Throws unless a reply may still be sent.
    func checkOpen(method: String) throws(VarlinkReplyError) {
        guard !hasSentFinalReply else { throw .finalReplyAlreadySent(method: method) }
    }

    func record(continues: Bool, method: String) throws(VarlinkReplyError) {
        try finalReplySent.withLock { sent throws(VarlinkReplyError) in
            guard !sent else { throw .finalReplyAlreadySent(method: method) }
            sent = !continues
        }
    }
}
