import Foundation
import Glibc

/// Reads video and audio metadata by running `ffprobe`, with a time limit so a hostile file cannot stall the caller.
public struct MediaProber: Sendable {
    public var executable: String
    /// Seconds after which ffprobe is killed.
    public var timeLimit: Int

    public init(executable: String = "/usr/bin/ffprobe", timeLimit: Int = 30) {
        self.executable = executable
        self.timeLimit = timeLimit
    }

    /// Probes the file at `path`. Blocking: call it off the event loop.
    public func probe(path: String) throws(MediaProbeError) -> MediaInfo {
        let output = try run(["-v", "error", "-print_format", "json", "-show_format", "-show_streams", "--", path], path: path)
        guard let info = Self.mediaInfo(fromJSON: output) else {
            throw .unreadable(path: path, reason: "it has no video or audio stream")
        }
        return info
    }

    /// Parses ffprobe's JSON output; nil when it describes no video or audio stream.
    public static func mediaInfo(fromJSON data: Data) -> MediaInfo? {
        (try? JSONDecoder().decode(ProbeOutput.self, from: data))?.mediaInfo()
    }

    private func run(_ arguments: [String], path: String) throws(MediaProbeError) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .probeUnavailable("\(executable): \(error.localizedDescription)")
        }
        let deadline = DispatchWorkItem { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeLimit), execute: deadline)
        let errorText = ErrorCollector(errors.fileHandleForReading)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        deadline.cancel()
        if process.terminationReason == .uncaughtSignal {
            throw .timedOut(path: path, seconds: timeLimit)
        }
        guard process.terminationStatus == 0 else {
            let reason = errorText.text.split(whereSeparator: \.isNewline).last.map(String.init) ?? "ffprobe failed"
            throw .unreadable(path: path, reason: reason.replacingOccurrences(of: path + ": ", with: ""))
        }
        return data
    }
}

/// Reads a pipe to its end on another thread, so a chatty child cannot block on a full pipe.
private final class ErrorCollector: @unchecked Sendable {
    // @unchecked: `data` is written once by the reading thread before `group` is left, and read after waiting on it.
    private var data = Data()
    private let group = DispatchGroup()

    init(_ handle: FileHandle) {
        group.enter()
        DispatchQueue.global().async { [self] in
            data = handle.readDataToEndOfFile()
            group.leave()
        }
    }

    var text: String {
        group.wait()
        return String(decoding: data.prefix(4096), as: UTF8.self)
    }
}
