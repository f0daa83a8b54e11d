import Foundation
import Glibc

/// An external tool (ffmpeg, ffprobe) run to its end, or killed at a time limit so that a hostile file cannot hold
/// the calling thread. Its output is read whole and its error messages on another thread, so that neither pipe
/// can fill up and block it.
///
/// The watchdog and the error reader are threads of their own, not Dispatch work items: Linux's Dispatch pool
/// grows slowly while its threads block (measured: a one-second timer fired after 17 s with 32 blocked items), so
/// a busy daemon would kill its tools late and leave their error pipes unread.
public struct ToolProcess: Sendable {
    public var executable: String
    /// Seconds after which the tool is killed.
    public var timeLimit: Int

    public init(executable: String, timeLimit: Int) {
        self.executable = executable
        self.timeLimit = timeLimit
    }

    /// How a run that finished in time ended.
    public struct Outcome: Sendable {
        public var status: Int32
        public var output: Data
        /// The last line the tool wrote to standard error, if any.
        public var lastErrorLine: String?
    }

    public enum Failure: Error, Sendable, Hashable {
        /// The executable could not be started (missing, not executable), with the system's reason.
        case cannotStart(String)
        /// The tool ran longer than `timeLimit` and was killed.
        case timedOut
    }

    /// Runs the tool with `arguments`, standard input closed. Blocking: call it off the event loops.
    public func run(_ arguments: [String]) throws(Failure) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let started = ContinuousClock.now
        do {
            try process.run()
        } catch {
            throw .cannotStart("\(executable): \(error.localizedDescription)")
        }
        let exited = DispatchSemaphore(value: 0)
        Thread { [process, timeLimit] in
            if exited.wait(timeout: .now() + .seconds(timeLimit)) == .timedOut, process.isRunning {
                kill(process.processIdentifier, SIGKILL)
            }
        }.start()
        let errorText = ErrorCollector(errors.fileHandleForReading)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        exited.signal()
        if process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL,
           ContinuousClock.now - started >= .seconds(timeLimit) {
            throw .timedOut
        }
        let lastErrorLine = errorText.text.split(whereSeparator: \.isNewline).last.map(String.init)
        return Outcome(status: process.terminationStatus, output: data, lastErrorLine: lastErrorLine)
    }
}

/// Reads a pipe to its end on another thread, so a chatty child cannot block on a full pipe.
private final class ErrorCollector: @unchecked Sendable {
    // @unchecked: `data` is written once by the reading thread before `group` is left, and read after waiting on it.
    private var data = Data()
    private let group = DispatchGroup()

    init(_ handle: FileHandle) {
        group.enter()
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            group.leave()
        }.start()
    }

    /// The last 4 KB of what was written.
    var text: String {
        group.wait()
        return String(decoding: data.suffix(4096), as: UTF8.self)
    }
}
