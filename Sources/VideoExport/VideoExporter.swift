import Foundation
import Glibc
import Synchronization
import ToolProcess

/// Why an export failed.
public enum VideoExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ffmpeg could not read or convert the video, with its reason.
    case failed(String)
    /// The export was cancelled.
    case cancelled
    /// ffmpeg could not be started.
    case cannotStart(String)

    public var description: String {
        switch self {
        case .failed(let reason): reason
        case .cancelled: "the export was cancelled"
        case .cannotStart(let reason): "cannot run ffmpeg: \(reason)"
        }
    }
}

/// One export of a video with the `ffmpeg` command: H.264 and AAC scaled to fit the preset (the streams copied for
/// passthrough), written under a temporary name beside the output and renamed into place only when complete, so that
/// a failed or cancelled export leaves no file. Progress comes from ffmpeg's `-progress` lines.
public final class VideoExport: @unchecked Sendable {
    // @unchecked: `executable` is set before the export starts; the rest is `let`, and `running` is a Mutex.
    public let input: String
    public let output: String
    public let preset: ExportPreset
    public let fileType: ExportFileType
    /// The source's displayed size and duration, which the output size and progress are computed from.
    public let sourceSize: (width: Int, height: Int)
    public let duration: Double
    /// `-movflags +faststart`: the index first, so that a player can start before the whole file is there.
    public let optimizesForNetworkUse: Bool
    public var executable = "/usr/bin/ffmpeg"

    /// The ffmpeg running, and whether the export was cancelled.
    private let running = Mutex<(process: ChildProcess?, isCancelled: Bool)>((nil, false))

    public init(
        input: String, output: String, preset: ExportPreset, fileType: ExportFileType,
        sourceSize: (width: Int, height: Int), duration: Double, optimizesForNetworkUse: Bool = false
    ) {
        self.input = input
        self.output = output
        self.preset = preset
        self.fileType = fileType
        self.sourceSize = sourceSize
        self.duration = duration
        self.optimizesForNetworkUse = optimizesForNetworkUse
    }

    /// The size of the picture the export writes.
    public var outputSize: (width: Int, height: Int) {
        preset.outputSize(width: sourceSize.width, height: sourceSize.height)
    }

    /// ffmpeg's arguments, `-progress` lines on standard output and errors only on standard error.
    public func arguments(writingTo path: String) -> [String] {
        // "file:" keeps a name with a colon from being read as a protocol.
        var arguments = [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-nostats", "-progress", "pipe:1", "-y",
            "-i", "file:" + input, "-map", "0:v:0?", "-map", "0:a:0?", "-map_metadata", "0",
        ]
        if preset == .passthrough {
            arguments += ["-c", "copy"]
        } else {
            let size = outputSize
            arguments += [
                "-vf", "scale=\(size.width):\(size.height)", "-c:v", "libx264", "-preset", "veryfast",
                "-crf", preset == .highestQuality ? "18" : "23", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-b:a", "128k",
            ]
        }
        if optimizesForNetworkUse { arguments += ["-movflags", "+faststart"] }
        return arguments + ["-f", fileType == .mp4 ? "mp4" : "mov", "file:" + path]
    }

    /// Runs the export, calling `progress` with the fraction done (0...1) as ffmpeg reports it. Blocking: call it
    /// from a thread of its own.
    public func run(progress: (Double) -> Void) throws(VideoExportError) {
        let partial = output + ".part"
        // Gone already when the export was renamed into place.
        defer { unlink(partial) }
        let (tool, progressLines, errors) = try start(writingTo: partial)
        var lines = LineReader(descriptor: progressLines)
        while let line = lines.nextLine() {
            let text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix("out_time_us="), duration > 0, let microseconds = Double(text.dropFirst(12)) {
                progress(min(1, max(0, microseconds / 1e6 / duration)))
            }
        }
        close(progressLines)
        let termination = tool.waitForExit()
        if running.withLock({ $0.isCancelled }) { throw .cancelled }
        guard termination == .exited(0) else {
            let reason = errors.text.split(whereSeparator: \.isNewline).last.map(String.init)
            throw .failed(reason ?? "ffmpeg ended with status \(termination.status)")
        }
        guard rename(partial, output) == 0 else {
            throw .failed("cannot move the export into place: \(String(cString: strerror(errno)))")
        }
        progress(1)
    }

    /// Starts ffmpeg writing to `path`, unless the export is cancelled already: the process, the read end of its
    /// progress lines, and what it writes to standard error.
    private func start(writingTo path: String) throws(VideoExportError) -> (ChildProcess, Int32, ErrorCollector) {
        let output: (read: Int32, write: Int32), errors: (read: Int32, write: Int32)
        do {
            output = try ToolProcess.makePipe()
            do {
                errors = try ToolProcess.makePipe()
            } catch {
                close(output.read); close(output.write)
                throw error
            }
        } catch {
            throw .cannotStart("\(error)")
        }
        defer { close(output.write); close(errors.write) }
        let started: Result<ChildProcess, VideoExportError> = running.withLock { running in
            guard !running.isCancelled else { return .failure(.cancelled) }
            do {
                let tool = try ChildProcess(
                    executable: executable, arguments: arguments(writingTo: path),
                    standardInput: nil, standardOutput: output.write, standardError: errors.write)
                running.process = tool
                return .success(tool)
            } catch {
                return .failure(.cannotStart("\(error)"))
            }
        }
        switch started {
        case .success(let tool):
            return (tool, output.read, ErrorCollector(FileHandle(fileDescriptor: errors.read, closeOnDealloc: true)))
        case .failure(let failure):
            close(output.read); close(errors.read)
            throw failure
        }
    }

    /// Stops the export from any thread: ffmpeg is killed and `run` throws `cancelled`, leaving no file.
    public func cancel() {
        running.withLock { running in
            running.isCancelled = true
            running.process?.kill()
        }
    }
}
