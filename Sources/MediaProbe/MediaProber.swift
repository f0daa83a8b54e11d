import Foundation
import ToolProcess

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
        let outcome: ToolProcess.Outcome
        do {
            outcome = try ToolProcess(executable: executable, timeLimit: timeLimit).run(arguments)
        } catch {
            switch error {
            case .cannotStart(let reason): throw .probeUnavailable(reason)
            case .timedOut: throw .timedOut(path: path, seconds: timeLimit)
            }
        }
        guard outcome.status == 0 else {
            let reason = outcome.lastErrorLine ?? "ffprobe failed"
            throw .unreadable(path: path, reason: reason.replacingOccurrences(of: path + ": ", with: ""))
        }
        return outcome.output
    }
}
