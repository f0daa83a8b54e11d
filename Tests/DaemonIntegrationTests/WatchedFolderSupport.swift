import Foundation
import Glibc
import PhotoLibrary
import TestSupport
import Varlink

/// A daemon watching real folders, and what the watched-folder tests ask of it through the typed client.
struct WatchedLibrary {
    let daemon: DaemonProcess
    let client: PhotoLibrary

    init(daemon: DaemonProcess) async throws {
        self.daemon = daemon
        client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
    }

    /// Starts a daemon with one `[[source]]` per `(path, mode)`.
    static func start(sources: [(path: String, mode: String)]) async throws -> WatchedLibrary {
        let tables = sources.map { "[[source]]\npath = \"\($0.path)\"\nmode = \"\($0.mode)\"\n" }.joined(separator: "\n")
        let daemon = try DaemonProcess(extraConfig: tables)
        try await daemon.start()
        return try await WatchedLibrary(daemon: daemon)
    }

    /// Restarts the daemon on the same library and reconnects.
    func restarted(afterKill: Bool = false) async throws -> WatchedLibrary {
        await client.close()
        if afterKill { try await daemon.kill9() } else { try await daemon.stop() }
        try await daemon.start()
        return try await WatchedLibrary(daemon: daemon)
    }

    func status() async throws -> ImportStatus {
        try await client.importStatus()
    }

    func sources() async throws -> [ImportSource] {
        try await client.listSources()
    }

    /// Every asset (trashed ones too when asked), with resources.
    func assets(includeTrashed: Bool = false) async throws -> [Asset] {
        try await client.fetchAllAssets(matching: AssetQuery(includeTrashed: includeTrashed), includeResources: true).assets
    }

    /// The asset named `originalFilename` among `assets`.
    func asset(named originalFilename: String, includeTrashed: Bool = false) async throws -> Asset? {
        try await assets(includeTrashed: includeTrashed).first { $0.originalFilename == originalFilename }
    }

    /// Waits (up to `timeout` seconds) until the importer is idle and `condition` holds; a test fails rather than hangs.
    func waitUntil(timeout: Double = 120, _ description: String,
                   _ condition: () async throws -> Bool) async throws {
        let idleAndDone = try await eventually(timeout: .seconds(timeout)) {
            let status = try await status()
            guard status.queued == 0, status.processing == 0 else { return false }
            return try await condition()
        }
        if idleAndDone { return }
        throw DaemonError("gave up waiting for: \(description); log:\n\(daemon.log().suffix(4000))")
    }
}

/// Test media made once per process with the real `vips`, `exiftool` and `ffmpeg`.
enum MediaFixtures {
    /// A small JPEG taken on 2021-06-15 at 12:00 +02:00, 64×48 pixels.
    static let datedJPEG: Data = {
        let folder = try! TemporaryDirectory()
        let path = try! ImageFixtures.image(at: folder.file("base.jpg"), width: 64, height: 48, exif: [
            "-DateTimeOriginal=2021:06:15 12:00:00", "-OffsetTimeOriginal=+02:00",
        ])
        return try! Data(contentsOf: URL(fileURLWithPath: path))
    }()

    /// The dated JPEG with `index` appended after its end: a different file with the same picture and metadata.
    static func jpegVariant(_ index: Int) -> Data {
        datedJPEG + Data("photolibd-variant-\(index)".utf8)
    }

    /// Writes the variants `indexes` as `NAME-INDEX.jpg` in `folder`; returns their paths.
    @discardableResult
    static func writeVariants(_ indexes: Range<Int>, in folder: String, prefix: String = "photo") throws -> [String] {
        try indexes.map { index in
            let path = "\(folder)/\(prefix)-\(index).jpg"
            try jpegVariant(index).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// A one-second movie from ffmpeg at `rate` frames per second, saying it was captured at `captureRate` as an
    /// Android camera does for slow motion and time-lapse.
    static func movie(at path: String, rate: Int = 30, size: String = "64x48", captureRate: Double? = nil) throws {
        let capture = captureRate.map { ["-metadata", "com.android.capture.fps=\($0)", "-movflags", "use_metadata_tags"] } ?? []
        try runTool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=\(rate):duration=1",
                                        "-pix_fmt", "yuv420p"] + capture + [path])
    }

    /// A one-second WAV tone.
    static func sound(at path: String) throws {
        try runTool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", path])
    }
}

/// Reads an Observe stream, collecting the ids of inserted assets.
struct InsertionCollector {
    private var events: AsyncThrowingStream<LibraryChangeEvent, any Error>.AsyncIterator
    private(set) var inserted: [String] = []

    /// Starts observing the user library on a connection of its own.
    static func start(_ daemon: DaemonProcess) async throws -> (InsertionCollector, PhotoLibrary) {
        let client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        var events = client.observe().makeAsyncIterator()
        _ = try await events.next()
        return (InsertionCollector(events: events), client)
    }

    /// Reads events until `count` assets were inserted in all.
    mutating func readInsertions(until count: Int) async throws {
        while inserted.count < count, let event = try await events.next() {
            inserted += event.objects.filter { $0.kind == .asset && $0.change == .inserted }.map(\.id)
        }
    }
}

/// Lists the regular files under `folder`, recursively.
func filesUnder(_ folder: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var files: [String] = []
    while let name = enumerator?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue {
            files.append(folder + "/" + name)
        }
    }
    return files
}
