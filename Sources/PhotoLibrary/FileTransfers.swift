#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import PhotolibProtocol
import Synchronization
import Varlink

/// The bytes of the daemon's files, and bytes for it, whether or not this process may open the library's files.
///
/// A file the daemon named (a rendition, an original, a resource, an export) is read where it lies when this process
/// can open it (a user's own daemon), else through the socket (`Images.ReadFile`: the system service's files are
/// its user's alone). Bytes for a new asset go through the socket (`Import.Upload`), since the daemon may not read
/// this process's files either (another user; the system service's private /tmp).
///
/// Every call blocks its thread: call from a thread of your own (``onThread(_:)``), never from Swift's cooperative
/// pool. Transfers share a few connections of their own, kept between transfers.
public final class FileTransfers: Sendable {
    /// Connections kept open between transfers.
    static let idleLimit = 2
    /// The size of the chunks streamed and copied.
    public static let chunkSize = 1 << 20

    public let socketPath: String
    private let idle = Mutex<[VarlinkRawConnection]>([])
    /// The daemon's user, once a connection told it.
    private let daemonUser = Mutex<UInt32?>(nil)

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// `length` bytes (to the end by default) of the file at `path` from `offset`.
    public func read(_ path: String, offset: Int = 0, length: Int? = nil,
                     cancellation: TransferCancellation? = nil) throws(PhotoLibraryError) -> Data {
        var data = Data()
        try stream(path, offset: offset, length: length, chunkSize: Int.max, cancellation: cancellation) { chunk in
            if data.isEmpty { data = chunk } else { data.append(chunk) }
        }
        return data
    }

    /// Calls `receive` with the bytes of the file at `path`, from `offset` for `length` bytes (to the end by
    /// default), in chunks of at most `chunkSize` bytes, in order. What `receive` throws ends the transfer.
    public func stream(_ path: String, offset: Int = 0, length: Int? = nil, chunkSize: Int = FileTransfers.chunkSize,
                       cancellation: TransferCancellation? = nil,
                       receive: (Data) throws -> Void) throws(PhotoLibraryError) {
        try mapping {
            if let file = LocalFile(path) {
                defer { file.close() }
                let end = min(file.size, length.map { offset + $0 } ?? file.size)
                var position = offset
                while position < end {
                    if cancellation?.isCancelled == true { throw PhotoLibraryError.transferCancelled }
                    let chunk = try file.read(at: position, count: min(chunkSize, end - position))
                    guard !chunk.isEmpty else { break }
                    position += chunk.count
                    try receive(chunk)
                }
                return
            }
            try transfer(cancellation) { connection in
                let reply = try connection.call(ImagesMethod.readFile.qualifiedName,
                                                parameters: ReadFileParameters(path: path, offset: offset, length: length),
                                                returning: ReadFileReply.self)
                var remaining = reply.length
                while remaining > 0 {
                    var chunk = Data(count: min(chunkSize, remaining))
                    try chunk.withUnsafeMutableBytes { try connection.readRaw(exactly: $0) }
                    remaining -= chunk.count
                    try receive(chunk)
                }
            }
        }
    }

    /// Copies the file at `path` into a new file at `destination`, which must not exist; `progress` hears the bytes
    /// copied so far and the file's size. A copy that fails or is cancelled leaves no file.
    public func copy(_ path: String, to destination: String, cancellation: TransferCancellation? = nil,
                     progress: (Int, Int) -> Void = { _, _ in }) throws(PhotoLibraryError) {
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw .cannotWrite(destination, errno: errno) }
        var isComplete = false
        defer {
            close(output)
            if !isComplete { unlink(destination) }
        }
        let size = try fileSize(path)
        var copied = 0
        try stream(path, cancellation: cancellation) { chunk in
            try LocalFile.write(chunk, to: output, destination: destination)
            copied += chunk.count
            progress(copied, size)
        }
        isComplete = true
    }

    /// The size of the file at `path`.
    public func fileSize(_ path: String) throws(PhotoLibraryError) -> Int {
        if let file = LocalFile(path) {
            defer { file.close() }
            return file.size
        }
        return try mapping {
            try transfer(nil) { connection in
                try connection.call(ImagesMethod.readFile.qualifiedName,
                                    parameters: ReadFileParameters(path: path, offset: 0, length: 0),
                                    returning: ReadFileReply.self).fileSize
            }
        }
    }

    /// Sends `data` to the daemon for a `createAsset` change (its `upload`); returns the upload's id. `filename`'s
    /// extension tells the format; without one the bytes do.
    public func upload(_ data: Data, filename: String? = nil, cancellation: TransferCancellation? = nil)
        throws(PhotoLibraryError) -> String
    {
        try mapping {
            try upload(size: data.count, filename: filename, cancellation: cancellation) { connection in
                try data.withUnsafeBytes { try connection.writeRaw($0) }
            }
        }
    }

    /// Sends the file at `path` (which this process reads) to the daemon for a `createAsset` change; returns the
    /// upload's id.
    public func upload(contentsOf path: String, filename: String? = nil, cancellation: TransferCancellation? = nil)
        throws(PhotoLibraryError) -> String
    {
        guard let file = LocalFile(path) else { throw .cannotRead(path, errno: errno) }
        defer { file.close() }
        return try mapping {
            try upload(size: file.size, filename: filename ?? (path as NSString).lastPathComponent,
                       cancellation: cancellation) { connection in
                var position = 0
                while position < file.size {
                    let chunk = try file.read(at: position, count: min(Self.chunkSize, file.size - position))
                    guard !chunk.isEmpty else { throw PhotoLibraryError.cannotRead(path, errno: EIO) }
                    try chunk.withUnsafeBytes { try connection.writeRaw($0) }
                    position += chunk.count
                }
            }
        }
    }

    /// Runs blocking transfer work on a thread of its own, for async callers: `try await transfers.onThread {
    /// try transfers.copy(path, to: destination) }`.
    public func onThread<Value: Sendable>(_ work: @escaping @Sendable () throws(PhotoLibraryError) -> Value)
        async throws(PhotoLibraryError) -> Value
    {
        let outcome: Result<Value, PhotoLibraryError> = await withCheckedContinuation { finished in
            Thread {
                do throws(PhotoLibraryError) {
                    finished.resume(returning: .success(try work()))
                } catch {
                    finished.resume(returning: .failure(error))
                }
            }.start()
        }
        return try outcome.get()
    }

    /// Whether the daemon can read the file at `path` of this process's: it runs as this process's user, and the
    /// file is not in a temporary folder (a service's /tmp is private to it). Otherwise bytes go through the socket.
    public func daemonReads(_ path: String) -> Bool {
        guard !path.hasPrefix("/tmp/"), !path.hasPrefix("/var/tmp/") else { return false }
        let uid = daemonUser.withLock { (known: inout UInt32?) -> UInt32? in
            if let known { return known }
            let connection = try? idle.withLock({ $0.popLast() }) ?? VarlinkRawConnection.connect(socketPath: socketPath)
            known = connection?.server?.uid
            if let connection { keep(connection) }
            return known
        }
        return uid == getuid()
    }

    /// Closes the connections kept for later transfers.
    public func closeIdleConnections() {
        idle.withLock { $0.removeAll() }
    }

    private func upload(size: Int, filename: String?, cancellation: TransferCancellation?,
                        send: (VarlinkRawConnection) throws -> Void) throws -> String {
        try transfer(cancellation) { connection in
            _ = try connection.call(ImportMethod.upload.qualifiedName, parameters: UploadParameters(size: size, filename: filename),
                                    returning: UploadReply.self)
            try send(connection)
            return try connection.readReply(returning: UploadReply.self).uploadId
        }
    }

    /// Runs `body` on a connection of the pool (a new one when none is idle), which goes back to the pool when `body`
    /// completes; one that failed or was cancelled is closed.
    private func transfer<Value>(_ cancellation: TransferCancellation?,
                                 _ body: (VarlinkRawConnection) throws -> Value) throws -> Value {
        let connection = try idleConnection() ?? VarlinkRawConnection.connect(socketPath: socketPath)
        guard cancellation?.attach(connection) ?? true else { throw PhotoLibraryError.transferCancelled }
        defer { cancellation?.detach() }
        do {
            let value = try body(connection)
            keep(connection)
            return value
        } catch let error as VarlinkError {
            // The daemon answered: the connection is in step and can serve the next transfer.
            keep(connection)
            throw error
        } catch {
            if cancellation?.isCancelled == true || connection.wasShutDown { throw PhotoLibraryError.transferCancelled }
            throw error
        }
    }

    /// An idle connection of the pool that can still carry a call; those the daemon hung up on (it restarted) are
    /// dropped, which closes them.
    private func idleConnection() -> VarlinkRawConnection? {
        while let connection = idle.withLock({ $0.popLast() }) {
            if connection.isUsable { return connection }
        }
        return nil
    }

    private func keep(_ connection: VarlinkRawConnection) {
        guard !connection.wasShutDown else { return }
        idle.withLock { if $0.count < Self.idleLimit { $0.append(connection) } }
    }

    /// Runs `body`, turning what it throws into a `PhotoLibraryError`.
    private func mapping<Value>(_ body: () throws -> Value) throws(PhotoLibraryError) -> Value {
        do {
            return try body()
        } catch {
            throw PhotoLibraryError(error, socketPath: socketPath)
        }
    }
}

/// Stops a transfer in progress from another thread; the transfer then fails with `cancelled`.
public final class TransferCancellation: Sendable {
    private struct State {
        var isCancelled = false
        var connection: VarlinkRawConnection?
        var actions: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    public func cancel() {
        let (connection, actions) = state.withLock { state in
            state.isCancelled = true
            defer { state.actions = [] }
            return (state.connection, state.actions)
        }
        connection?.shutDown()
        for action in actions { action() }
    }

    /// Runs `action` when the transfer is cancelled (at once when it is already): to stop work that is not a
    /// transfer, such as the daemon's export before it.
    public func onCancel(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            if !state.isCancelled { state.actions.append(action) }
            return state.isCancelled
        }
        if now { action() }
    }

    /// The transfer runs on `connection` from now on; false when it is cancelled already.
    func attach(_ connection: VarlinkRawConnection) -> Bool {
        state.withLock { state in
            state.connection = connection
            return !state.isCancelled
        }
    }

    func detach() {
        state.withLock { $0.connection = nil }
    }
}

extension PhotoLibraryError {
    static let transferCancelled = PhotoLibraryError(code: .cancelled, message: "the transfer was cancelled")

    static func cannotRead(_ path: String, errno code: Int32) -> PhotoLibraryError {
        PhotoLibraryError(code: .invalidParameter, message: "cannot read \(path): \(String(cString: strerror(code)))")
    }

    static func cannotWrite(_ path: String, errno code: Int32) -> PhotoLibraryError {
        PhotoLibraryError(code: .invalidParameter, message: "cannot write \(path): \(String(cString: strerror(code)))")
    }
}
