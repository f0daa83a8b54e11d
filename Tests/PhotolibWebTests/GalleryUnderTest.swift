import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PhotoLibrary
import TestSupport

@testable import PhotolibWeb

#if canImport(Glibc)
    import Glibc
#endif

/// The real daemon on a temporary library with a few photos and a video, and the gallery's application on it.
struct GalleryUnderTest {
    let daemon: DaemonProcess
    let token: AccessToken
    var configuration: GalleryConfiguration
    let assetIds: [String]
    let videoId: String?

    static func start(photos: Int = 3, video: Bool = false) async throws -> GalleryUnderTest {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let folder = daemon.directory + "/photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var paths: [String] = []
        for index in 0..<photos {
            let path = "\(folder)/IMG_\(index).jpg"
            try MarkedPhotos.write(
                at: path, width: 90 + index * 10, height: 60, orientation: 1,
                exif: ["-DateTimeOriginal=2024:05:\(10 + index) 12:00:00"])
            paths.append(path)
        }
        if video {
            let path = "\(folder)/clip.mp4"
            try runTool(
                "/usr/bin/ffmpeg",
                [
                    "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10:duration=2",
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", path,
                ])
            paths.append(path)
        }
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let imported = try await library.importFiles(paths, mode: .copy).files.compactMap(\.assetId)
        await library.close()
        let token = AccessToken.random()
        let configuration = GalleryConfiguration(
            listen: .tcp(host: "127.0.0.1", port: 0), socketPath: daemon.socketPath,
            token: token, stagingRoot: daemon.directory + "/staging")
        return GalleryUnderTest(
            daemon: daemon, token: token, configuration: configuration,
            assetIds: Array(imported.prefix(photos)), videoId: video ? imported.last : nil)
    }

    /// Imports more files (copied in) and returns their assets' ids, in order.
    func importing(_ paths: [String]) async throws -> [String] {
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let imported = try await library.importFiles(paths, mode: .copy).files
        await library.close()
        return try imported.map { file in
            guard let id = file.assetId else {
                throw DaemonError("\(file.path) was not imported: \(file.error ?? "?")")
            }
            return id
        }
    }

    /// Runs `test` against the gallery listening on a port of its own (the client's requests say `Host: localhost`),
    /// with the change feed running; the gallery stops when it returns.
    func test(_ test: @escaping @Sendable (GalleryClient) async throws -> Void) async throws {
        var logger = Logger(label: "photolib-web-test")
        logger.logLevel = .warning
        let (ports, bound) = AsyncStream.makeStream(of: Int?.self)
        let app = Gallery.makeApplication(configuration, logger: logger) { port in bound.yield(port) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService() }
            var listening = ports.makeAsyncIterator()
            let port = await listening.next() ?? nil
            try await test(GalleryClient(port: port))
            group.cancelAll()
        }
    }

    /// A signed-in request's headers: the session cookie (and the gallery's own Origin, for changes).
    var signedIn: HTTPFields {
        [.cookie: "photolib_session=\(token.sessionValue)", .origin: "http://localhost"]
    }
}

/// One HTTP/1.1 request written as it is onto a new connection to `port`, for what the test client cannot send (a
/// foreign `Host`); returns the response's status code.
func rawStatus(port: Int, request: String) throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
    let bytes = Array(request.utf8)
    _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    let statusLine = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).split(separator: " ")
    return statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
}
