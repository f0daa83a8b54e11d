import Imaging
import Logging
import PhotolibConfig
import TestSupport

@testable import DaemonCore

/// What the in-process tests of the core share: a quiet logger, and a core opened on the library folder of a
/// temporary directory, as the daemon opens it.
enum CoreUnderTest {
    /// A logger that prints only critical messages.
    static var logger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    /// A core on `directory`'s `library` folder (created, or the library a test wrote there), with no import source.
    static func open(in directory: TemporaryDirectory) async throws -> LibraryCore {
        try VipsRuntime.start()
        let configuration = DaemonConfiguration(
            libraryPath: directory.file("library"), cachePath: directory.file("cache"),
            socketPath: directory.file("socket"), sources: [], isSystemDaemon: false)
        return try await LibraryCore.open(configuration: configuration, environment: [:], logger: logger)
    }
}
