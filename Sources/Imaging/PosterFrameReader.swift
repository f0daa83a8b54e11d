import Foundation
import ToolProcess

/// Takes a video's poster frame with the `ffmpeg` command, which turns it upright by the video's rotation.
public struct PosterFrameReader: Sendable {
    public var executable: String
    /// Seconds after which ffmpeg is killed, so that a hostile file cannot hold a worker.
    public var timeLimit: Int

    public init(executable: String = "/usr/bin/ffmpeg", timeLimit: Int = 30) {
        self.executable = executable
        self.timeLimit = timeLimit
    }

    /// The frame one second in (the first frame of videos shorter than two seconds) as PNG bytes. Blocking.
    public func posterFrame(ofVideoAt path: String, duration: Double) throws(ImagingError) -> [UInt8] {
        let time = duration >= 2 ? 1.0 : 0
        if let frame = try frame(ofVideoAt: path, at: time) {
            return frame
        }
        // A recorded duration can be wrong; the first frame is always there.
        if time > 0, let frame = try frame(ofVideoAt: path, at: 0) {
            return frame
        }
        throw .noVideoFrame(path: path, reason: "ffmpeg found no video frame")
    }

    /// The frame at `time` seconds, or nil when the video ends before it.
    private func frame(ofVideoAt path: String, at time: Double) throws(ImagingError) -> [UInt8]? {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("photolibd-frame-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        } catch {
            throw .noVideoFrame(path: path, reason: "cannot create a scratch directory: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        let frame = scratch.appendingPathComponent("frame.png").path
        // "file:" keeps a name with a colon from being read as a protocol.
        let arguments = [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-ss", String(time), "-i", "file:" + path,
            "-map", "0:v:0", "-frames:v", "1", "-update", "1", "-compression_level", "1", "file:" + frame,
        ]
        let outcome: ToolProcess.Outcome
        do {
            outcome = try ToolProcess(executable: executable, timeLimit: timeLimit).run(arguments)
        } catch {
            switch error {
            case .cannotStart(let reason): throw .noVideoFrame(path: path, reason: "cannot run \(reason)")
            case .timedOut: throw .noVideoFrame(path: path, reason: "ffmpeg took more than \(timeLimit) seconds")
            }
        }
        guard outcome.status == 0 else {
            throw .noVideoFrame(path: path, reason: outcome.lastErrorLine ?? "ffmpeg failed")
        }
        return FileManager.default.contents(atPath: frame).map { [UInt8]($0) }
    }
}
