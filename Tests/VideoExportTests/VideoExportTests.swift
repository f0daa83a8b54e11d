import Foundation
import Glibc
import Testing
import TestSupport
import VideoExport

struct VideoExportTests {
    @Test(arguments: [
        (ExportPreset.size1280x720, 1920, 1080, 1280, 720),
        (.size1280x720, 1080, 1920, 720, 1280),
        (.size1280x720, 640, 360, 640, 360),
        (.size640x480, 1920, 1080, 640, 360),
        (.size1920x1080, 4000, 3000, 1440, 1080),
        (.mediumQuality, 1920, 1080, 568, 320),
        (.lowQuality, 1920, 1080, 224, 126),
        (.highestQuality, 1921, 1081, 1920, 1080),
        (.passthrough, 1921, 1081, 1921, 1081),
    ])
    func aPresetFitsThePictureInItsBoxKeepingItsAspect(preset: ExportPreset, width: Int, height: Int,
                                                       expectedWidth: Int, expectedHeight: Int) {
        let size = preset.outputSize(width: width, height: height)
        #expect(size.width == expectedWidth && size.height == expectedHeight)
    }

    @Test func anExportIsH264AndAACOfThePresetsSizeWithProgress() throws {
        let directory = try TemporaryDirectory()
        let input = try VideoFixtures.clip(at: directory.file("in.mov"), width: 1920, height: 1080, seconds: 3,
                                           codec: "libx265")
        let output = directory.file("out.mp4")
        let export = VideoExport(input: input, output: output, preset: .size1280x720, fileType: .mp4,
                                 sourceSize: (1920, 1080), duration: 3, optimizesForNetworkUse: true)
        var fractions: [Double] = []
        try export.run { fractions.append($0) }
        let probe = try VideoFixtures.probe(output)
        #expect(probe.videoCodec == "h264" && probe.audioCodec == "aac")
        #expect(probe.width == 1280 && probe.height == 720)
        #expect(abs(probe.duration - 3) < 0.2)
        #expect(fractions.last == 1 && fractions == fractions.sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["in.mov", "out.mp4"])
    }

    @Test func passthroughCopiesTheStreams() throws {
        let directory = try TemporaryDirectory()
        let input = try VideoFixtures.clip(at: directory.file("in.mov"), width: 640, height: 480, codec: "libx265")
        let output = directory.file("out.mov")
        try VideoExport(input: input, output: output, preset: .passthrough, fileType: .mov, sourceSize: (640, 480),
                        duration: 2).run { _ in }
        let probe = try VideoFixtures.probe(output)
        #expect(probe.videoCodec == "hevc" && probe.width == 640 && probe.height == 480)
    }

    @Test func aBrokenInputFailsWithFFmpegsReasonAndLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        let input = directory.file("broken.mp4")
        try Data(repeating: 0x42, count: 10_000).write(to: URL(fileURLWithPath: input))
        let export = VideoExport(input: input, output: directory.file("out.mp4"), preset: .size640x480, fileType: .mp4,
                                 sourceSize: (640, 480), duration: 2)
        do {
            try export.run { _ in }
            Issue.record("a broken input was exported")
        } catch {
            guard case .failed(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("Invalid data"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["broken.mp4"])
    }

    @Test func anExportIntoAFolderThatDoesNotExistFailsWithAReason() throws {
        let directory = try TemporaryDirectory()
        let input = try VideoFixtures.clip(at: directory.file("in.mp4"))
        let export = VideoExport(input: input, output: directory.file("missing/out.mp4"), preset: .size640x480,
                                 fileType: .mp4, sourceSize: (320, 240), duration: 2)
        #expect(throws: VideoExportError.self) { try export.run { _ in } }
    }

    @Test func aCancelledExportKillsFFmpegAndLeavesNoFile() async throws {
        let directory = try TemporaryDirectory()
        let input = try VideoFixtures.clip(at: directory.file("in.mp4"), width: 1920, height: 1080, seconds: 20)
        let export = VideoExport(input: input, output: directory.file("out.mp4"), preset: .highestQuality, fileType: .mp4,
                                 sourceSize: (1920, 1080), duration: 20)
        // ffmpeg is looked up and the export cancelled from the first progress report, while ffmpeg is surely running:
        // looked up later, a fast machine may have finished the export already.
        let running = RunningTool()
        let outcome = Task.detached { () -> VideoExportError? in
            do {
                try export.run { _ in
                    guard !running.isRecorded else { return }
                    running.record(try? childProcesses(named: "ffmpeg", writingInto: directory.path).first)
                    export.cancel()
                }
                return nil
            } catch {
                return error as? VideoExportError
            }
        }
        #expect(await outcome.value == .cancelled)
        let ffmpeg = try #require(running.pid)
        #expect(kill(ffmpeg, 0) != 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["in.mp4"])
    }
}

/// The ffmpeg process an export ran, recorded from its progress handler.
final class RunningTool: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: pid_t??

    var isRecorded: Bool { lock.withLock { recorded != nil } }
    var pid: pid_t? { lock.withLock { recorded ?? nil } }

    func record(_ pid: pid_t?) { lock.withLock { recorded = .some(pid) } }
}

/// The processes of this test process named `name` whose arguments name a file in `folder` (tests run side by side).
private func childProcesses(named name: String, writingInto folder: String) throws -> [pid_t] {
    let me = getpid()
    return try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { pid_t($0) }.filter { pid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        guard stat.contains("(\(name))"), fields.count > 1, pid_t(fields[1]) == me,
              let arguments = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return String(decoding: arguments, as: UTF8.self).contains(folder + "/")
    }
}
