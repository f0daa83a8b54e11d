import BenchmarkSupport
import FolderWatch
import Foundation
import Glibc
import LibraryStore
import PhotoModel
import Varlink

/// Times watched-folder ingest with a real `photolibd`: copy-mode throughput beside `sha256sum`, drop-to-event
/// latency beside `inotifywait`, and start-up reconciliation of a large unchanged reference source.
@main
struct ImportBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 4, let benchmark = Benchmark(rawValue: arguments[1]) else {
            print("usage: import-benchmark throughput|latency|reconcile PHOTOLIBD_BINARY WORK_DIRECTORY [COUNT]")
            exit(2)
        }
        let daemonBinary = arguments[2], work = arguments[3]
        let count = arguments.count > 4 ? Int(arguments[4]) : nil
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        switch benchmark {
        case .throughput: try await throughput(daemonBinary, work: work + "/throughput", files: count ?? 2_000)
        case .latency: try await latency(daemonBinary, work: work + "/latency", files: count ?? 200)
        case .reconcile: try await reconcile(daemonBinary, work: work + "/reconcile", files: count ?? 100_000)
        }
    }

    enum Benchmark: String { case throughput, latency, reconcile }

    // MARK: - Throughput

    /// Copy-mode ingest of `files` camera-sized JPEGs, beside `sha256sum` reading the same files (both from a warm cache).
    static func throughput(_ daemonBinary: String, work: String, files: Int) async throws {
        let photos = work + "/photos"
        let paths = try makeVariants(of: try cameraJPEG(in: work), count: files, in: photos)
        let bytes = paths.reduce(0) { $0 + (FileIdentity(regularFileAt: $1)?.size ?? 0) }
        print("\(files) JPEGs of 4000x3000 pixels, \(bytes / Int64(files) / 1000) kB each")
        _ = try run("/usr/bin/cat", paths, discardingOutput: true)
        let hashStart = now()
        for chunk in stride(from: 0, to: paths.count, by: 500) {
            _ = try run("/usr/bin/sha256sum", Array(paths[chunk..<min(paths.count, chunk + 500)]), discardingOutput: true)
        }
        let hashSeconds = now() - hashStart

        try? FileManager.default.removeItem(atPath: work + "/library")
        let daemon = try DaemonRun(binary: daemonBinary, work: work, source: (photos, "copy"))
        let connection = try await daemon.connect()
        let ingestStart = now()
        try await waitForImports(files, connection: connection)
        let ingestSeconds = now() - ingestStart
        await connection.close()
        daemon.stop()
        let hashRate = Double(files) / hashSeconds, ingestRate = Double(files) / ingestSeconds
        print(String(format: "sha256sum:           %7.1f files/s (%.1f s)", hashRate, hashSeconds))
        print(String(format: "photolibd copy mode: %7.1f files/s (%.1f s, from start: scan, read, hash, copy, fsync, commit)",
                     ingestRate, ingestSeconds))
        print(String(format: "ratio: %.2f of sha256sum's files per second (target: at least 0.90)", ingestRate / hashRate))
        BenchmarkRecord.figure("copy-mode ingest, \(files) camera JPEGs", ours: ingestRate, peer: hashRate, peerName: "sha256sum",
                               unit: "files/s", better: .higher, target: "≥ 0.9×")
    }

    /// A 12-megapixel JPEG with camera-like detail, made once with `vips`.
    static func cameraJPEG(in work: String) throws -> String {
        let path = work + "/camera.jpg"
        guard !FileManager.default.fileExists(atPath: path) else { return path }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        _ = try run("/usr/bin/vips", ["gaussnoise", work + "/noise.v", "4000", "3000", "--sigma", "12"])
        _ = try run("/usr/bin/vips", ["copy", work + "/noise.v", path + "[Q=90]"])
        try? FileManager.default.removeItem(atPath: work + "/noise.v")
        return path
    }

    /// `count` distinct copies of `original` (its bytes plus a number), written once.
    static func makeVariants(of original: String, count: Int, in folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: original))
        return try (0..<count).map { index in
            let path = String(format: "%@/IMG_%05d.jpg", folder, index)
            if !FileManager.default.fileExists(atPath: path) {
                try (bytes + Data("variant \(index)".utf8)).write(to: URL(fileURLWithPath: path))
            }
            return path
        }
    }

    static func waitForImports(_ expected: Int, connection: VarlinkConnection) async throws {
        while true {
            let status = try await connection.call("io.photolibd.Import.Status", parameters: .object([:]))
            let done = (status["imported"]?.intValue ?? 0) + (status["failed"]?.intValue ?? 0)
            if done >= expected, status["queued"]?.intValue == 0, status["processing"]?.intValue == 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    // MARK: - Latency

    /// Files closed in a watched drop folder at 10 per second: time to `inotifywait`'s line and to the Observe reply.
    static func latency(_ daemonBinary: String, work: String, files: Int) async throws {
        try? FileManager.default.removeItem(atPath: work)
        let drop = work + "/drop", staging = work + "/staging"
        for folder in [drop, staging] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        _ = try run("/usr/bin/vips", ["gaussnoise", work + "/noise.v", "1600", "1200", "--sigma", "12"])
        _ = try run("/usr/bin/vips", ["copy", work + "/noise.v", work + "/photo.jpg[Q=90]"])
        let photo = try Data(contentsOf: URL(fileURLWithPath: work + "/photo.jpg"))

        let daemon = try DaemonRun(binary: daemonBinary, work: work, source: (drop, "move"))
        let connection = try await daemon.connect()
        var observer = connection.stream("io.photolibd.Library.Observe", parameters: JSONValue.object([:]),
                                         returning: JSONValue.self).makeAsyncIterator()
        _ = try await observer.next()
        let watcher = try LineTimer(executable: "/usr/bin/inotifywait",
                                    arguments: ["-m", "-q", "-e", "close_write", "--format", "%f", drop])
        try await Task.sleep(for: .milliseconds(500))

        var closed: [UInt64] = []
        let writer = Task.detached {
            var times: [UInt64] = []
            for index in 0..<files {
                let start = DispatchTime.now().uptimeNanoseconds
                let descriptor = open(drop + "/drop-\(index).jpg", O_CREAT | O_WRONLY | O_TRUNC, 0o644)
                let bytes = photo + Data("variant \(index)".utf8)
                _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                times.append(DispatchTime.now().uptimeNanoseconds)
                close(descriptor)
                try await Task.sleep(nanoseconds: 100_000_000 - min(100_000_000, DispatchTime.now().uptimeNanoseconds - start))
            }
            return times
        }
        var observed: [UInt64] = []
        while observed.count < files, let reply = try await observer.next() {
            let inserted = reply["objects"]?.arrayValue?.filter {
                $0["kind"]?.stringValue == "asset" && $0["change"]?.stringValue == "inserted"
            }.count ?? 0
            observed += Array(repeating: DispatchTime.now().uptimeNanoseconds, count: inserted)
        }
        closed = try await writer.value
        let noticed = watcher.stop()
        await connection.close()
        daemon.stop()
        let inotify = zip(noticed, closed).map { Double(Int64($0) - Int64($1)) / 1e6 }
        let event = zip(observed, closed).map { Double(Int64($0) - Int64($1)) / 1e6 }
        print("\(files) files of \(photo.count / 1000) kB closed at 10 per second (milliseconds from close)")
        print(String(format: "inotifywait line:      p50 %6.2f  p99 %6.2f  max %6.2f",
                     percentile(inotify, 0.5), percentile(inotify, 0.99), inotify.max() ?? .nan))
        print(String(format: "photolibd Observe:     p50 %6.2f  p99 %6.2f  max %6.2f",
                     percentile(event, 0.5), percentile(event, 0.99), event.max() ?? .nan))
        print(String(format: "p99 difference: %.2f ms (target: under 10 ms)", percentile(event, 0.99) - percentile(inotify, 0.99)))
        BenchmarkRecord.samples("drop-to-event: photolibd Observe", event, unit: "ms")
        BenchmarkRecord.samples("drop-to-event: inotifywait", inotify, unit: "ms")
        BenchmarkRecord.figure("drop-to-event p99, 10 files/s", ours: percentile(event, 0.99), peer: percentile(inotify, 0.99),
                               peerName: "inotifywait", unit: "ms", comparison: .difference, target: "≤ inotifywait + 10 ms")

        // An import syncs its copy, the folder and the commit: the disk's own sync times, right after, tell how much
        // of the tail above is the disk's.
        var synced: [Double] = []
        for index in 0..<files {
            let start = DispatchTime.now().uptimeNanoseconds
            let descriptor = open(staging + "/probe-\(index).jpg", O_CREAT | O_WRONLY | O_TRUNC, 0o644)
            _ = photo.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            fsync(descriptor)
            close(descriptor)
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            synced.append(Double(elapsed) / 1e6)
            try await Task.sleep(nanoseconds: 100_000_000 - min(100_000_000, elapsed))
        }
        print(String(format: "the disk, write + fsync of the same file: p50 %6.2f  p99 %6.2f  max %6.2f",
                     percentile(synced, 0.5), percentile(synced, 0.99), synced.max() ?? .nan))
        BenchmarkRecord.samples("drop-to-event: the disk's write + fsync of the file", synced, unit: "ms")
        BenchmarkRecord.figure("… the disk's own write + fsync of the file, p99 (same run)", ours: percentile(synced, 0.99),
                               peer: nil, peerName: nil, unit: "ms", target: "")
    }

    // MARK: - Reconciliation

    /// A reference source of `files` unchanged files already in the library: time from the daemon's start to the
    /// source reported as watching again (its start-up scan done).
    static func reconcile(_ daemonBinary: String, work: String, files: Int) async throws {
        let source = work + "/photos", library = work + "/library"
        let database = library + "/library.sqlite"
        if !FileManager.default.fileExists(atPath: database) {
            try? FileManager.default.removeItem(atPath: work)
            let built = now()
            try makeTinyFiles(files, in: source)
            try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
            _ = try LibraryDatabase(path: database)
            try recordAsImported(source: source, database: database)
            print(String(format: "made %d files and their assets in %.1f s", files, now() - built))
        }
        for round in 1...3 {
            let started = now()
            let daemon = try DaemonRun(binary: daemonBinary, work: work, source: (source, "reference"))
            let connection = try await daemon.connect()
            let listening = now() - started
            while true {
                let sources = try await connection.call("io.photolibd.Import.ListSources", parameters: .object([:]))
                if sources["sources"]?[0]?["state"]?.stringValue == "watching" { break }
                try await Task.sleep(for: .milliseconds(5))
            }
            let reconciled = now() - started
            let status = try await connection.call("io.photolibd.Import.Status", parameters: .object([:]))
            await connection.close()
            daemon.stop()
            let scan = daemon.log().split(separator: "\n").last { $0.contains("reconciled") } ?? "no reconcile line"
            print(String(format: "round %d: %d unchanged files reconciled %.2f s after start (socket up at %.2f s); %d queued; log: %@",
                         round, files, reconciled, listening, status["imported"]?.intValue ?? -1, String(scan) as NSString))
        }
    }

    /// `count` small distinct files named like photos, 1,000 per folder.
    static func makeTinyFiles(_ count: Int, in folder: String) throws {
        for index in 0..<count {
            let directory = String(format: "%@/%03d", folder, index / 1_000)
            if index % 1_000 == 0 { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            try Data("photo \(index)".utf8).write(to: URL(fileURLWithPath: String(format: "%@/IMG_%06d.jpg", directory, index)))
        }
    }

    /// Writes, with one sqlite3 transaction, an asset per file as a reference import would have recorded it.
    static func recordAsImported(source: String, database: String) throws {
        var sql = "BEGIN;\n"
        var number = 0
        try DirectoryScan.walk(source, recursive: true) { item in
            guard case .file(let path, let identity) = item else { return }
            number += 1
            let id = "bench-\(number)", name = (path as NSString).lastPathComponent
            sql += """
                INSERT INTO asset (id, mediaType, pixelWidth, pixelHeight, creationTime, addedTime, originalFilename, fileSize, contentHash)
                  VALUES ('\(id)', 1, 1, 1, \(identity.modificationSeconds), \(identity.modificationSeconds), '\(name)', \(identity.size), 'hash-\(number)');
                INSERT INTO resource (assetId, type, originalFilename, mimeType, fileSize, path, isOwnedByLibrary)
                  VALUES ('\(id)', 'photo', '\(name)', 'image/jpeg', \(identity.size), '\(path)', 0);
                INSERT INTO resource_file (assetId, type, contentHash, sourceRoot, sourcePath, groupKey, role, device, inode, size, modificationTime)
                  VALUES ('\(id)', 'photo', 'hash-\(number)', '\(source)', '\(path)', NULL, 'still', \(Int64(bitPattern: identity.device)),
                  \(Int64(bitPattern: identity.inode)), \(identity.size), \(identity.modificationTime));

                """
        }
        sql += "COMMIT;\n"
        _ = try runSQLite3(database, sql)
    }

    // MARK: - Helpers

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        var measurements = Measurements()
        for value in values { measurements.append(value) }
        return measurements.percentile(fraction)
    }

    /// Runs a tool to completion; throws when it fails.
    static func run(_ executable: String, _ arguments: [String], discardingOutput: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = discardingOutput ? FileHandle.nullDevice : output
        try process.run()
        let data = discardingOutput ? Data() : output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("\(executable) exited \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A release `photolibd` on a library in the work directory, watching one source.
struct DaemonRun {
    let process = Process()
    let socket: String
    let logPath: String

    init(binary: String, work: String, source: (path: String, mode: String)) throws {
        socket = work + "/socket"
        logPath = work + "/daemon.log"
        try """
            library = "\(work)/library"
            cache = "\(work)/cache"
            socket = "\(socket)"
            [[source]]
            path = "\(source.path)"
            mode = "\(source.mode)"
            """.write(toFile: work + "/photolibd.conf", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--config", work + "/photolibd.conf"]
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try process.run()
    }

    func connect() async throws -> VarlinkConnection {
        for _ in 0..<2_000 {
            if let connection = try? await VarlinkConnection.connect(socketPath: socket) { return connection }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw BenchmarkError("photolibd did not start; see \(logPath)")
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
}

/// Runs a tool that prints lines, noting when each line arrives.
final class LineTimer: @unchecked Sendable {
    // @unchecked: `times` is written by the reading thread only, and read after `stop` joined it.
    private let process = Process()
    private var times: [UInt64] = []
    private let finished = DispatchSemaphore(value: 0)

    init(executable: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        try output.fileHandleForWriting.close()
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(handle.fileDescriptor, &buffer, buffer.count)
                guard count > 0 else { break }
                let now = DispatchTime.now().uptimeNanoseconds
                times += Array(repeating: now, count: buffer[..<count].filter { $0 == 0x0A }.count)
            }
            finished.signal()
        }
    }

    /// Stops the tool; returns when each line arrived.
    func stop() -> [UInt64] {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        finished.wait()
        return times
    }
}
