import Foundation
import Glibc
import Synchronization
import Varlink

/// The real `photolibd` binary running on a temporary library, socket and config.
public final class DaemonProcess: @unchecked Sendable {
    // @unchecked: `process` is only replaced by start/stop, which tests call from one task.
    public let directory: String
    public let socketPath: String
    public let configPath: String
    /// A command that starts the daemon, given its command line as arguments (for example to run it in a namespace).
    public var launcher: [String]
    private var process: Process?
    private let logPath: String

    /// The directory that holds the built products (`photolibd`, `photolib`, the test bundle).
    public static let productsDirectory: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("photolibd").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.path
    }()

    /// A launcher that starts the daemon as systemd does a socket-activated service: Debian's
    /// `systemd-socket-activate` listens on `socketPath` and hands the socket over (passing on from the environment
    /// only the variables in `passing`). It closes every descriptor but the socket, the one Foundation watches a child's
    /// exit through among them, after which Foundation's one monitor thread blocks in `wait4` until the daemon exits,
    /// and every other `Process` of the test run waits behind it. So a small Python parent stays in between and passes
    /// SIGTERM on (with the signals unblocked that the test process's spawning thread may block).
    public static func socketActivationLauncher(socketPath: String, passing variables: [String] = []) -> [String] {
        let parent = """
            import signal, subprocess, sys
            child = subprocess.Popen(sys.argv[1:])
            signal.signal(signal.SIGTERM, lambda *_: child.terminate())
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            sys.exit(child.wait())
            """
        return ["/usr/bin/python3", "-c", parent, "/usr/bin/systemd-socket-activate", "--listen=" + socketPath]
            + variables.map { "--setenv=" + $0 }
    }

    public init(extraConfig: String = "", launcher: [String] = []) throws {
        self.launcher = launcher
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("photolibd-it-\(UUID().uuidString)").path
        socketPath = directory + "/run/socket"
        configPath = directory + "/photolibd.conf"
        logPath = directory + "/daemon.log"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try """
            library = "\(directory)/library"
            cache = "\(directory)/cache"
            socket = "\(socketPath)"
            \(extraConfig.contains("[[source]]") ? "" : "source = []")
            \(extraConfig)
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    deinit {
        if let process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    public var libraryPath: String { directory + "/library" }

    /// Starts the daemon and waits until its socket answers. `--config` gets `configArgument` when given
    /// (a path relative to `workingDirectory`), else `configPath`; `environment` is added to the test's own.
    public func start(configArgument: String? = nil, workingDirectory: String? = nil,
                      environment added: [String: String] = [:]) async throws {
        let command = launcher + [Self.productsDirectory + "/photolibd", "--config", configArgument ?? configPath]
        let process = Process()
        process.currentDirectoryURL = workingDirectory.map { URL(fileURLWithPath: $0) }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "PHOTOLIBD_SOCKET")
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        process.environment = environment.merging(added) { _, new in new }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        logHandle.seekToEndOfFile()
        process.standardError = logHandle
        process.standardOutput = logHandle
        try process.run()
        self.process = process
        // Two minutes: at the start of a test run, a couple of dozen daemons and tools share two cores.
        var answers = false
        try await eventually(timeout: .seconds(120)) {
            if let connection = try? await VarlinkConnection.connect(socketPath: socketPath) {
                await connection.close()
                answers = true
            }
            return answers || !process.isRunning
        }
        guard answers else { throw DaemonError("photolibd did not start; log:\n\(log())") }
    }

    /// Stops with SIGTERM and waits for the exit; returns the exit status.
    @discardableResult
    public func stop() async throws -> Int32 {
        guard let process else { return 0 }
        process.terminate()
        return try await wait(for: process)
    }

    /// Kills with SIGKILL, as a crash or power cut would.
    public func kill9() async throws {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        _ = try await wait(for: process)
    }

    public var isRunning: Bool { process?.isRunning ?? false }

    /// The running daemon's process id (its launcher's, which execs it, when there is one).
    public var processIdentifier: Int32? { process?.processIdentifier }

    /// Sends `signal` (SIGHUP, SIGTERM...) without waiting.
    public func send(_ signal: Int32) {
        if let process { kill(process.processIdentifier, signal) }
    }

    /// Waits for the daemon to exit by itself or a signal sent earlier; returns the exit status.
    public func waitForExit() async throws -> Int32 {
        guard let process else { return 0 }
        return try await wait(for: process)
    }

    /// Makes sure the daemon does not outlive the test process, for a daemon shared by a whole test run
    /// (one that no `deinit` ever stops).
    public func killWhenTestsExit() {
        processesToKillAtExit.withLock { daemons in
            if daemons.isEmpty {
                atexit { processesToKillAtExit.withLock { $0.forEach { $0.killNow() } } }
            }
            daemons.append(self)
        }
    }

    private func killNow() {
        if let process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The daemon's resident memory in kilobytes (VmRSS), or nil when it is not running.
    public var residentKilobytes: Int? {
        guard let process, process.isRunning,
              let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    }

    public func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    public func connect() async throws -> VarlinkConnection {
        try await VarlinkConnection.connect(socketPath: socketPath)
    }

    private func wait(for process: Process) async throws -> Int32 {
        guard try await eventually(timeout: .seconds(60), { !process.isRunning }) else {
            throw DaemonError("photolibd did not exit")
        }
        self.process = nil
        return process.terminationStatus
    }
}

private let processesToKillAtExit = Mutex<[DaemonProcess]>([])

public struct DaemonError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Checks `condition` every 50 ms until it holds or `timeout` passes (a busy machine can be slow); whether it held.
@discardableResult
public func eventually(timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws -> Bool {
    try await eventually(timeout: timeout) { try await condition() ? true : nil } ?? false
}

/// Asks for `value` every 50 ms until there is one or `timeout` passes.
public func eventually<Value>(timeout: Duration = .seconds(60), _ value: () async throws -> Value?) async throws -> Value? {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try await value() { return value }
        guard ContinuousClock.now < deadline else { return nil }
        try await Task.sleep(for: .milliseconds(50))
    }
}
