import CSpawn
import Foundation
import Glibc

/// An external tool (ffmpeg, ffprobe) run to its end, or killed at a time limit so that a hostile file cannot hold
/// the calling thread. Its output is read whole and its error messages on a thread of their own, so that neither
/// pipe can fill up and block it.
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

    /// Runs the tool with `arguments`, standard input `/dev/null`, as a `ChildProcess`. Blocking: call it off the
    /// event loops.
    public func run(_ arguments: [String]) throws(Failure) -> Outcome {
        let output = try Self.makePipe()
        let errors: (read: Int32, write: Int32)
        do {
            errors = try Self.makePipe()
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        let tool: ChildProcess
        do {
            defer {
                close(output.write)
                close(errors.write)
            }
            tool = try ChildProcess(executable: executable, arguments: arguments, standardInput: nil,
                                    standardOutput: output.write, standardError: errors.write)
        } catch {
            close(output.read)
            close(errors.read)
            throw error
        }
        let started = ContinuousClock.now
        let (data, errorText, termination) = tool.withTimeLimit(timeLimit) {
            let errorText = ErrorCollector(FileHandle(fileDescriptor: errors.read, closeOnDealloc: true))
            let data = FileHandle(fileDescriptor: output.read, closeOnDealloc: true).readDataToEndOfFile()
            return (data, errorText, tool.waitForExit())
        }
        if termination == .killed(signal: SIGKILL), ContinuousClock.now - started >= .seconds(timeLimit) {
            throw .timedOut
        }
        let lastErrorLine = errorText.text.split(whereSeparator: \.isNewline).last.map(String.init)
        return Outcome(status: termination.status, output: data, lastErrorLine: lastErrorLine)
    }

    /// A pipe whose ends this process does not pass on to other children.
    public static func makePipe() throws(Failure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe2(&ends, O_CLOEXEC) == 0 else { throw .cannotStart("cannot make a pipe: \(String(cString: strerror(errno)))") }
        return (ends[0], ends[1])
    }
}

/// Reads a pipe to its end on another thread, so a chatty child cannot block on a full pipe.
public final class ErrorCollector: @unchecked Sendable {
    // @unchecked: `data` is written once by the reading thread before `group` is left, and read after waiting on it.
    private var data = Data()
    private let group = DispatchGroup()

    public init(_ handle: FileHandle) {
        group.enter()
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            group.leave()
        }.start()
    }

    /// The last 4 KB of what was written, once the pipe is closed.
    public var text: String {
        group.wait()
        return String(decoding: data.suffix(4096), as: UTF8.self)
    }
}
