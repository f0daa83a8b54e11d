import Dispatch
import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import PhotoLibrary

/// The bytes of the files the daemon names (renditions, originals, exports) as response bodies, through the client
/// module's `FileTransfers`: read where they lie when this process may open them (a user's own daemon), else through
/// the daemon's socket (the system service's files are its user's alone, contract §11).
///
/// A transfer blocks its thread. A small one runs on NIO's pool for blocking work; a large one streams from a thread
/// of its own, which reads the next chunk only once the client took the last, so a slow client holds one chunk.
struct DaemonFiles: Sendable {
    /// Transfers of at most this many bytes are read whole.
    static var wholeReadLimit: Int { 1 << 20 }

    let transfers: FileTransfers

    /// `length` bytes (to the end by default) of the file at `path` from `offset`, read at once.
    func read(_ path: String, offset: Int = 0, length: Int? = nil) async throws(GalleryError) -> ByteBuffer {
        let transfers = transfers
        do {
            return try await NIOThreadPool.singleton.runIfActive {
                let bytes = try transfers.read(path, offset: offset, length: length)
                if let length, bytes.count < length { throw Self.shortFile(path, length: length, read: bytes.count) }
                return ByteBuffer(bytes: bytes)
            }
        } catch let error as PhotoLibraryError {
            throw error.gallery
        } catch {
            throw .daemon(PhotoLibraryError(code: .daemonError, message: "\(error)"))
        }
    }

    /// A body of the bytes `range` of the file at `path`: read before answering when small, so that a file gone
    /// missing (or shorter than the daemon said) is an error status, else streamed, and a file that ends before
    /// `range` does fails the body (the connection closes) rather than leaving the client waiting for the rest.
    func body(_ path: String, range: ClosedRange<Int64>) async throws(GalleryError) -> ResponseBody {
        let offset = Int(range.lowerBound), length = range.count
        guard length > Self.wholeReadLimit else {
            return ResponseBody(byteBuffer: try await read(path, offset: offset, length: length))
        }
        let transfers = transfers
        return ResponseBody { writer in
            try await Self.stream(path, offset: offset, length: length, transfers: transfers, to: &writer)
            try await writer.finish(nil)
        }
    }

    /// Writes the bytes to `writer` chunk by chunk as a thread of its own reads them; a client that goes away cancels
    /// the transfer (and with it the daemon's side of a socket transfer).
    private static func stream(_ path: String, offset: Int, length: Int, transfers: FileTransfers,
                               to writer: inout any ResponseBodyWriter) async throws {
        let (chunks, delivery) = AsyncThrowingStream.makeStream(of: Data.self)
        let taken = DispatchSemaphore(value: 0)
        let cancellation = TransferCancellation()
        Thread {
            do {
                var sent = 0
                try transfers.stream(path, offset: offset, length: length, cancellation: cancellation) { chunk in
                    delivery.yield(chunk)
                    sent += chunk.count
                    taken.wait()
                    if cancellation.isCancelled { throw PhotoLibraryError(code: .cancelled, message: "the client went away") }
                }
                if sent < length { throw shortFile(path, length: length, read: sent) }
                delivery.finish()
            } catch {
                delivery.finish(throwing: error)
            }
        }.start()
        defer {
            cancellation.cancel()
            taken.signal()
        }
        for try await chunk in chunks {
            try await writer.write(ByteBuffer(bytes: chunk))
            taken.signal()
        }
    }

    /// The file ended before the bytes the answer promised (its `Content-Length`, from the daemon's record).
    private static func shortFile(_ path: String, length: Int, read: Int) -> PhotoLibraryError {
        PhotoLibraryError(code: .daemonError, message: "\(path) ended after \(read) of the \(length) bytes asked for")
    }
}
