import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PhotoLibrary
@testable import PhotolibWeb
import TestSupport

/// The real daemon on a temporary library with a few photos and a video, and the gallery's application on it.
struct GalleryUnderTest {
    let daemon: DaemonProcess
    let token: AccessToken
    let configuration: GalleryConfiguration
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
            try MarkedPhotos.write(at: path, width: 90 + index * 10, height: 60, orientation: 1,
                                   exif: ["-DateTimeOriginal=2024:05:\(10 + index) 12:00:00"])
            paths.append(path)
        }
        if video {
            let path = "\(folder)/clip.mp4"
            try runTool("/usr/bin/ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10:duration=2",
                                            "-c:v", "libx264", "-pix_fmt", "yuv420p", path])
            paths.append(path)
        }
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let imported = try await library.importFiles(paths, mode: .copy).files.compactMap(\.assetId)
        await library.close()
        let token = AccessToken.random()
        let configuration = GalleryConfiguration(socketPath: daemon.socketPath, token: token,
                                                 stagingRoot: daemon.directory + "/staging")
        return GalleryUnderTest(daemon: daemon, token: token, configuration: configuration,
                                assetIds: Array(imported.prefix(photos)), videoId: video ? imported.last : nil)
    }

    /// Runs `test` against the gallery's routes (with the change feed running).
    func test(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        var logger = Logger(label: "photolib-web-test")
        logger.logLevel = .warning
        let app = Gallery.makeApplication(configuration, logger: logger)
        try await app.test(.router) { client in try await test(client) }
    }

    /// A signed-in request's headers: the session cookie and the gallery's own Host (and Origin, for changes).
    var signedIn: HTTPFields {
        [.cookie: "photolib_session=\(token.sessionValue)", HTTPField.Name("Host")!: "localhost:8470",
         .origin: "http://localhost:8470"]
    }
}
