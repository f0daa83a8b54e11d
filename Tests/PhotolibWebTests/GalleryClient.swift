import Foundation
import HTTPTypes
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// A response as the gallery sent it: the status, the header fields and the whole body (chunks joined).
struct GalleryResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: ByteBuffer
}

/// An HTTP/1.1 client of the gallery under test: each request on a connection of its own to 127.0.0.1 with
/// `Host: localhost` and `Connection: close`, the whole response read back. A GET or HEAD is asked again after a read
/// timeout or the gallery's 503 (the daemon did not answer within 10 s): with the whole suite running at once on two
/// cores one answer can be slow. A request that hangs or fails still fails, three times over; a request that changes
/// something is never sent twice.
struct GalleryClient: Sendable {
    struct ReadTimeout: Error {}
    struct MalformedResponse: Error, CustomStringConvertible {
        var description: String
    }

    /// The port the gallery listens on.
    let port: Int?
    /// How long a request may go without a byte of its response.
    var timeout: Duration = .seconds(20)

    /// Blocking socket work runs here, never on the threads the gallery's own tasks need.
    private static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 8)
        pool.start()
        return pool
    }()

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil)
        async throws -> GalleryResponse
    {
        let repeatable = method == .get || method == .head
        var attempt = 1
        while true {
            do {
                let response = try await Self.threads.runIfActive { [self] in
                    try exchange(uri: uri, method: method, headers: headers, body: body)
                }
                guard repeatable, attempt < 3, response.status == .serviceUnavailable else { return response }
                try await Task.sleep(for: .seconds(1))
            } catch is ReadTimeout where repeatable && attempt < 3 {}
            attempt += 1
        }
    }

    /// One request and its response, on a new connection. Blocking.
    private func exchange(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) throws
        -> GalleryResponse
    {
        guard let port else { throw MalformedResponse(description: "the gallery has no port") }
        let descriptor = try Self.connect(port: port)
        defer { close(descriptor) }
        var head = "\(method.rawValue) \(uri) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        for field in headers { head += "\(field.name.rawName): \(field.value)\r\n" }
        if let body, headers[.contentLength] == nil { head += "Content-Length: \(body.readableBytes)\r\n" }
        head += "\r\n"
        try Self.send(Array(head.utf8) + (body.map { Array($0.readableBytesView) } ?? []), to: descriptor)
        return try Self.parse(try receiveAll(from: descriptor), method: method)
    }

    /// One HTTP/1.1 request written as it is onto a new connection to `port`, for what `execute` cannot send (a
    /// foreign `Host`); returns the response's status code. Blocking.
    static func rawStatus(port: Int, request: String) throws -> Int {
        let descriptor = try connect(port: port)
        defer { close(descriptor) }
        try send(Array(request.utf8), to: descriptor)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        let statusLine = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).split(separator: " ")
        return statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
    }

    private static func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        return descriptor
    }

    private static func send(_ bytes: [UInt8], to descriptor: Int32) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, 0) }
            guard count > 0 else { throw POSIXError(.EPIPE) }
            sent += count
        }
    }

    /// Every byte until the gallery closes the connection, waiting at most `timeout` for each read.
    private func receiveAll(from descriptor: Int32) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let milliseconds = Int32(timeout.components.seconds * 1_000)
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, milliseconds) > 0 else { throw ReadTimeout() }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return received }
            received += buffer.prefix(count)
        }
    }

    /// The status line, the header fields and the body (joined from chunks when chunked) of `bytes`.
    private static func parse(_ bytes: [UInt8], method: HTTPRequest.Method) throws -> GalleryResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.firstRange(of: separator) else {
            throw MalformedResponse(description: "no end of the header in \(bytes.count) bytes")
        }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let code = Int(statusParts[1]) else {
            throw MalformedResponse(description: "status line '\(lines[0])'")
        }
        var headers = HTTPFields()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                continue
            }
            headers.append(
                HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Array(bytes[end.upperBound...])
        if method == .head { body = [] }
        if headers[.transferEncoding]?.lowercased() == "chunked" { body = try dechunked(body) }
        return GalleryResponse(status: HTTPResponse.Status(code: code), headers: headers, body: ByteBuffer(bytes: body))
    }

    private static func dechunked(_ bytes: [UInt8]) throws -> [UInt8] {
        var joined: [UInt8] = []
        var index = 0
        let lineEnd: [UInt8] = Array("\r\n".utf8)
        while let end = bytes[index...].firstRange(of: lineEnd) {
            let sizeText = String(decoding: bytes[index..<end.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else {
                throw MalformedResponse(description: "chunk size '\(sizeText)'")
            }
            guard size > 0 else { return joined }
            let start = end.upperBound
            guard start + size <= bytes.count else { throw MalformedResponse(description: "a chunk cut short") }
            joined += bytes[start..<start + size]
            index = start + size + 2
        }
        throw MalformedResponse(description: "no last chunk")
    }
}
