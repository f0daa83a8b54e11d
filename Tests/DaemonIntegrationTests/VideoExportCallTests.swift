import Foundation
import Glibc
import PhotoLibrary
import Testing
import TestSupport

/// `Images.ExportVideo`: ffmpeg's H.264/AAC exports with progress, kept while their source is unchanged, cancelled by
/// closing the connection.
@Suite(.serialized)
struct VideoExportCallTests {
    /// A daemon with one video of `seconds` at `width`×`height` in HEVC, as phones record.
    static func daemonWithVideo(width: Int = 1920, height: Int = 1080, seconds: Double = 3) async throws
        -> (PopulatedDaemon, assetId: String)
    {
        let library = try await PopulatedDaemon.make(photoCount: 0)
        let clip = try VideoFixtures.clip(at: library.photos.file("clip.mov"), width: width, height: height,
                                          seconds: seconds, codec: "libx265")
        let id = try #require(try await library.client.importFiles([clip]).files.first?.assetId)
        return (library, id)
    }

    @Test func anHEVCVideoIsExportedAsH264OfThePresetsSizeWithProgress() async throws {
        let (library, id) = try await Self.daemonWithVideo()
        var progress: [Double] = []
        var final: ExportVideoReply?
        for try await reply in library.client.exportVideo(id, preset: "AVAssetExportPreset1280x720") {
            if reply.path == nil { progress.append(reply.progress) } else { final = reply }
        }
        let exported = try #require(final)
        #expect(progress == progress.sorted() && progress.allSatisfy { (0..<1).contains($0) })
        #expect(exported.width == 1280 && exported.height == 720 && exported.mimeType == "video/mp4")
        let probe = try VideoFixtures.probe(try #require(exported.path))
        #expect(probe.videoCodec == "h264" && probe.audioCodec == "aac")
        #expect(probe.width == 1280 && probe.height == 720 && abs(probe.duration - 3) < 0.2)

        // Asked again, the export is handed out at once.
        var again: [ExportVideoReply] = []
        for try await reply in library.client.exportVideo(id, preset: "AVAssetExportPreset1280x720") { again.append(reply) }
        #expect(again.map(\.path) == [exported.path])
    }

    @Test func passthroughKeepsTheStreamsAndAnUnknownPresetIsRefused() async throws {
        let (library, id) = try await Self.daemonWithVideo(width: 640, height: 360, seconds: 1)
        var final: ExportVideoReply?
        for try await reply in library.client.exportVideo(id, preset: "AVAssetExportPresetPassthrough", fileType: "mov") {
            final = reply
        }
        let probe = try VideoFixtures.probe(try #require(final?.path))
        #expect(probe.videoCodec == "hevc" && probe.width == 640 && final?.mimeType == "video/quicktime")
        await #expect(throws: PhotoLibraryError.self) {
            for try await _ in library.client.exportVideo(id, preset: "AVAssetExportPreset4K") {}
        }
    }

    @Test func aBrokenVideoFailsWithFFmpegsReason() async throws {
        let (library, id) = try await Self.daemonWithVideo(width: 320, height: 240, seconds: 1)
        let stored = try await library.client.requestImageData(for: id)
        try Data(repeating: 0, count: 4096).write(to: URL(fileURLWithPath: stored.path))
        do {
            for try await _ in library.client.exportVideo(id, preset: "AVAssetExportPreset640x480") {}
            Issue.record("a broken video was exported")
        } catch let error as PhotoLibraryError {
            #expect(error.message.contains("the export failed"))
        }
        #expect(try Self.exportFiles(library).isEmpty)
    }

    @Test func closingTheConnectionStopsFFmpegAndLeavesNoFile() async throws {
        let (library, id) = try await Self.daemonWithVideo(seconds: 30)
        let client = try await PhotoLibrary.connect(socketPath: library.daemon.socketPath)
        for try await reply in client.exportVideo(id, preset: "AVAssetExportPresetHighestQuality") where reply.path == nil {
            break
        }
        await client.close()
        let daemonId = try #require(library.daemon.processIdentifier)
        #expect(try await eventually { Self.children(of: daemonId).isEmpty })
        #expect(try await eventually { try Self.exportFiles(library).isEmpty })
    }

    static func exportFiles(_ library: PopulatedDaemon) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: library.daemon.directory + "/cache/exports")
    }

    /// The processes whose parent is `parent`.
    static func children(of parent: pid_t) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent
        }
    }
}
