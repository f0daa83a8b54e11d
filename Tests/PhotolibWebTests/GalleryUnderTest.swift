import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PhotoLibrary
import ServiceLifecycle
import TestSupport

@testable import PhotolibWeb

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
        // A service group of its own, with no signal handlers in the test process, shut down gracefully afterwards.
        let service = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            var listening = ports.makeAsyncIterator()
            let port = await listening.next() ?? nil
            let tested: Result<Void, any Error>
            do {
                try await test(GalleryClient(port: port))
                tested = .success(())
            } catch {
                tested = .failure(error)
            }
            await service.triggerGracefulShutdown()
            try await group.waitForAll()
            try tested.get()
        }
    }

    /// A signed-in request's headers: the session cookie (and the gallery's own Origin, for changes).
    var signedIn: HTTPFields {
        [.cookie: "photolib_session=\(token.sessionValue)", .origin: "http://localhost"]
    }
}
