import DaemonCore
import Glibc
import NIOCore
import NIOPosix
import PhotolibProtocol
import Varlink

/// `Import.Upload`: takes a client's bytes into a private upload, answers them, and leaves nothing when the client
/// hangs up before the last byte.
struct UploadReceiver: Sendable {
    /// Bytes gathered before each write to the upload's file.
    static let writeSize = 1 << 20

    let uploads: Uploads
    let threadPool: NIOThreadPool

    func receive(
        _ parameters: UploadParameters, call: VarlinkCall, context: VarlinkCallContext,
        replies: VarlinkReplyWriter
    ) async throws {
        guard call.upgrade, let input = context.upgradedInput else { throw VarlinkError.invalidParameter("upgrade") }
        guard parameters.size > 0 else { throw VarlinkError.invalidParameter("size") }
        if let filename = parameters.filename, filename.isEmpty || filename.contains("/") || filename.contains("\0") {
            throw VarlinkError.invalidParameter("filename")
        }
        let (id, descriptor) = try begin(parameters, owner: context.caller?.uid)
        // Closed before the answer: a change the client sends next takes the file, and the importer refuses a file
        // that any process (this one included) still holds open for writing.
        var isOpen = true
        func closeFile() {
            if isOpen { close(descriptor) }
            isOpen = false
        }
        defer { closeFile() }
        input.expect(parameters.size)
        try await replies.send(UploadReply(uploadId: id))

        // A failed write keeps reading, so that the client's bytes end where the answer to them starts.
        var failure: VarlinkError?
        var gathered = ByteBuffer()
        func write() async {
            guard failure == nil, gathered.readableBytes > 0 else { return }
            let bytes = gathered
            gathered = ByteBuffer()
            do {
                failure = try await threadPool.runIfActive { Self.write(bytes, to: descriptor) }
            } catch {
                failure = UploadError.failed("the daemon is stopping").varlinkError
            }
        }
        do {
            try await input.receive(parameters.size) { chunk in
                guard failure == nil else { return }
                gathered.writeImmutableBuffer(chunk)
                if gathered.readableBytes >= Self.writeSize { await write() }
            }
            await write()
        } catch {
            closeFile()
            uploads.abandon(id)
            throw error
        }
        closeFile()
        if let failure {
            uploads.abandon(id)
            try await replies.sendAfterRawBytes(failure)
        } else {
            uploads.complete(id)
            try await replies.sendAfterRawBytes(UploadReply(uploadId: id, size: parameters.size))
        }
    }

    private func begin(_ parameters: UploadParameters, owner: UInt32?) throws -> (id: String, descriptor: Int32) {
        do {
            guard let owner else { throw UploadError.failed("the caller is not known") }
            return try uploads.begin(size: parameters.size, filename: parameters.filename, owner: owner)
        } catch let error as UploadError {
            throw error.varlinkError
        }
    }

    /// Writes all of `bytes`; the error to answer with when that fails.
    private static func write(_ bytes: ByteBuffer, to descriptor: Int32) -> VarlinkError? {
        bytes.withUnsafeReadableBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno == ENOSPC || errno == EDQUOT
                        ? UploadError.notEnoughSpace(needed: buffer.count - written, available: 0).varlinkError
                        : UploadError.failed("writing the upload failed: \(String(cString: strerror(errno)))")
                            .varlinkError
                }
                written += count
            }
            return nil
        }
    }
}
