import Foundation
import LibraryStore
import PhotoLibrary
import TestSupport

/// What the library benchmarks are given: `PHOTOLIBD_BINARY WORK_DIRECTORY [ASSETS] [ROUNDS]`.
public struct BenchmarkArguments: Sendable {
    public var daemonBinary: String
    public var work: String
    public var assetCount: Int
    public var rounds: Int

    /// Reads the command line; prints the usage of `command` and exits when it is incomplete.
    public static func parse(command: String, defaultAssets: Int, defaultRounds: Int = 200) -> BenchmarkArguments {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else {
            print("usage: \(command) PHOTOLIBD_BINARY WORK_DIRECTORY [ASSETS] [ROUNDS]")
            exit(2)
        }
        return BenchmarkArguments(
            daemonBinary: arguments[1], work: arguments[2],
            assetCount: arguments.count > 3 ? Int(arguments[3])! : defaultAssets,
            rounds: arguments.count > 4 ? Int(arguments[4])! : defaultRounds)
    }
}

/// A library built through the store, and a real `photolibd` serving it, for benchmarks.
public enum BenchmarkLibrary {
    /// Creates `library/library.sqlite` under `work` with `count` photo assets (dates spread over ten years)
    /// unless it exists; returns the database path.
    public static func build(in work: String, count: Int) async throws -> String {
        let library = work + "/library"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let path = library + "/library.sqlite"
        guard !FileManager.default.fileExists(atPath: path) else { return path }
        let started = Date()
        let database = try LibraryDatabase(path: path)
        var generator = SystemRandomNumberGenerator()
        for batchStart in stride(from: 0, to: count, by: 1_000) {
            let size = min(1_000, count - batchStart)
            var drafts: [Int: AssetDraft] = [:]
            var changes: [LibraryChange] = []
            for index in 0..<size {
                let number = batchStart + index
                let created = 1_400_000_000 + Double(generator.next() % 315_360_000)
                drafts[index] = AssetDraft(
                    mediaType: .image, pixelWidth: 4032, pixelHeight: 3024, orientation: 1,
                    creationDate: Timestamp(secondsSince1970: created, utcOffsetSeconds: 3_600),
                    creationDateSource: .exif,
                    location: Location(latitude: 48.85, longitude: 2.29), contentHash: "benchmark-\(number)",
                    resources: [
                        DraftResource(
                            type: .photo, originalFilename: "IMG_\(number).jpg", mimeType: "image/jpeg",
                            fileSize: 3_500_000, path: "/benchmark/IMG_\(number).jpg", isOwnedByLibrary: false)
                    ])
                changes.append(.createAsset(AssetCreation(path: "/benchmark/IMG_\(number).jpg", placeholder: nil)))
            }
            _ = try await database.performChanges(changes, drafts: drafts)
        }
        print(
            "built \(count) assets through the store in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        return path
    }

    /// Starts `photolibd` on the library under `work`; stop it with `terminate()`.
    public static func startDaemon(_ binary: String, work: String) async throws -> (process: Process, socket: String) {
        let socket = try writeConfiguration(work: work)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: binary)
        daemon.arguments = ["--config", work + "/photolibd.conf", "--log-level", "warning"]
        try daemon.run()
        for _ in 0..<600 {
            if let library = try? await PhotoLibrary.connect(socketPath: socket) {
                await library.close()
                return (daemon, socket)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        daemon.terminate()
        throw BenchmarkError("photolibd did not start")
    }

    /// Starts `photolibd` on the library under `work` as systemd would, with a `NOTIFY_SOCKET` of its own, and stops
    /// it again: milliseconds from the start to `READY=1`, and the daemon's resident memory a second later, idle.
    public static func timeStart(_ binary: String, work: String) async throws -> (
        readyMilliseconds: Double, idleMegabytes: Double
    ) {
        _ = try writeConfiguration(work: work)
        let notifications = try NotifySocket(path: work + "/notify-\(getpid())")
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: binary)
        daemon.arguments = ["--config", work + "/photolibd.conf", "--log-level", "warning"]
        daemon.environment = ProcessInfo.processInfo.environment.merging(notifications.environment) { $1 }
        let started = monotonicMilliseconds()
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        while !notifications.assignments.contains("READY=1") {
            guard daemon.isRunning, monotonicMilliseconds() - started < 60_000 else {
                throw BenchmarkError("photolibd never sent READY=1")
            }
            try await Task.sleep(for: .microseconds(200))
        }
        let ready = monotonicMilliseconds() - started
        try await Task.sleep(for: .seconds(1))
        return (ready, residentMegabytes(of: daemon))
    }

    /// Writes `work/photolibd.conf` for the library under `work`; returns the socket's path.
    private static func writeConfiguration(work: String) throws -> String {
        let socket = work + "/socket"
        try """
        library = "\(work)/library"
        cache = "\(work)/cache"
        socket = "\(socket)"
        source = []
        """.write(toFile: work + "/photolibd.conf", atomically: true, encoding: .utf8)
        return socket
    }

    /// Imports the photos by reference (a later run finds them in the library) and returns their ids in order.
    public static func importPhotos(_ photos: [String], binary: String, work: String) async throws -> [String] {
        let (process, socket) = try await startDaemon(binary, work: work)
        defer { process.terminate(); process.waitUntilExit() }
        let library = try await PhotoLibrary.connect(socketPath: socket)
        let result = try await library.importFiles(photos, mode: .reference)
        let ids = Dictionary(result.files.compactMap { file in file.assetId.map { (file.path, $0) } }) { first, _ in
            first
        }
        await library.close()
        return try photos.map { path in
            guard let id = ids[path] else { throw BenchmarkError("\(path) was not imported") }
            return id
        }
    }

    /// The daemon's resident memory in megabytes.
    public static func residentMegabytes(of process: Process) -> Double {
        residentMegabytes(ofProcess: process.processIdentifier)
    }

    /// A process's resident memory (VmRSS) in megabytes; 0 when it cannot be read.
    public static func residentMegabytes(ofProcess processID: Int32) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(processID)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }
}

/// Runs `script` in the `sqlite3` command line on `database` and returns what it printed.
public func runSQLite3(_ database: String, _ script: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [database]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(script.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

/// Wall time of whole sqlite3 runs of `script`, and the sum of its statements' `.timer` real times.
public func sqlite3Times(_ database: String, _ script: String, rounds: Int) throws
    -> (process: Measurements, timer: Measurements)
{
    var process = Measurements(), timer = Measurements()
    for _ in 0..<rounds {
        let start = monotonicMilliseconds()
        let output = try runSQLite3(database, ".timer on\n" + script)
        process.append(monotonicMilliseconds() - start)
        timer.append(
            output.split(separator: "\n").filter { $0.hasPrefix("Run Time: real") }
                .compactMap { $0.split(separator: " ").dropFirst(3).first.flatMap { Double($0) } }
                .reduce(0, +) * 1000)
    }
    return (process, timer)
}

/// Seconds `executable` takes to run to completion.
public func timeTool(_ executable: String, _ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    let start = monotonicMilliseconds()
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchmarkError("\(executable) failed") }
    return (monotonicMilliseconds() - start) / 1000
}

/// Order statistics of measured durations.
public struct Measurements {
    public private(set) var values: [Double] = []

    public init() {}

    public mutating func append(_ value: Double) { values.append(value) }

    public func percentile(_ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
    }

    public var median: Double { percentile(0.5) }
}

/// Milliseconds on the monotonic clock.
public func monotonicMilliseconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

/// The CPU time, user and system, that this process (all its threads) has spent so far, in milliseconds.
public func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let (user, system) = (usage.ru_utime, usage.ru_stime)
    return Double(user.tv_sec + system.tv_sec) * 1000 + Double(user.tv_usec + system.tv_usec) / 1000
}

public struct BenchmarkError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A blocking varlink client that sends a call and reads the reply's bytes without decoding them: the
/// wire cost of a call, apart from any client's JSON decoding.
public final class RawVarlinkClient {
    private let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)

    public init(socketPath: String) throws {
        descriptor = try connectUnixStream(to: socketPath)
    }

    deinit { close(descriptor) }

    /// Sends `message` (a JSON call) and returns the size of the reply once its last byte has arrived.
    public func call(_ message: String) throws -> Int {
        try exchange(message) { _ in }
    }

    /// Sends `message` and returns the reply's JSON (without its NUL).
    public func reply(to message: String) throws -> [UInt8] {
        var reply: [UInt8] = []
        _ = try exchange(message) { reply += $0 }
        return Array(reply.dropLast())
    }

    /// Sends `message`, hands each chunk of the reply to `received` as it arrives, and returns the reply's size.
    private func exchange(_ message: String, received: (UnsafeRawBufferPointer) -> Void) throws -> Int {
        let bytes = Array(message.utf8) + [0]
        guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            throw BenchmarkError("write failed")
        }
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw BenchmarkError("connection closed") }
            buffer.withUnsafeBytes { received(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            total += count
            if buffer[count - 1] == 0 { return total }
        }
    }
}
