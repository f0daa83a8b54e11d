import Foundation
import Photos
import Testing
import TestSupport

/// Video requests and export sessions, checked with ffprobe.
extension PhotosModuleTests {
    /// A video asset of `seconds` at `width`×`height` in HEVC, as phones record.
    private func videoAsset(width: Int, height: Int, seconds: Double, in directory: TemporaryDirectory) throws -> PHAsset {
        let clip = try VideoFixtures.clip(at: directory.file("clip-\(UUID().uuidString.prefix(6)).mov"), width: width,
                                          height: height, seconds: seconds, codec: "libx265")
        var placeholder: PHObjectPlaceholder?
        try PHPhotoLibrary.shared().performChangesAndWait {
            placeholder = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: URL(fileURLWithPath: clip))?
                .placeholderForCreatedAsset
        }
        return try #require(PHAsset.fetchAssets(withLocalIdentifiers: [placeholder!.localIdentifier], options: nil).firstObject)
    }

    @Test func aVideoComesAsAnAssetAPlayerItemAndAnExportOfThePresetsSize() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let video = try videoAsset(width: 1920, height: 1080, seconds: 2, in: directory)
        #expect(video.mediaType == .video && video.playbackStyle == .video && abs(video.duration - 2) < 0.2)

        let requested = VideoDelivery()
        PHImageManager.default().requestAVAsset(forVideo: video, options: nil) { asset, mix, info in
            requested.set(asset, info)
            #expect(mix == nil)
        }
        let avAsset = try #require(try await eventually { requested.asset } as? AVURLAsset)
        #expect(FileManager.default.isReadableFile(atPath: avAsset.url.path))
        #expect(abs(CMTimeGetSeconds(avAsset.duration) - 2) < 0.2)
        #expect(try VideoFixtures.probe(avAsset.url.path).videoCodec == "hevc")

        // The medium quality format is H.264, whatever the video was.
        let medium = PHVideoRequestOptions()
        medium.deliveryMode = .mediumQualityFormat
        let converted = VideoDelivery()
        PHImageManager.default().requestPlayerItem(forVideo: video, options: medium) { item, info in
            converted.set(item?.asset, info)
        }
        let item = try #require(try await eventually { converted.asset } as? AVURLAsset)
        let mediumProbe = try VideoFixtures.probe(item.url.path)
        #expect(mediumProbe.videoCodec == "h264" && mediumProbe.width == 568 && mediumProbe.height == 320)

        let sessions = SessionDelivery()
        PHImageManager.default().requestExportSession(forVideo: video, options: nil, exportPreset: AVAssetExportPreset1280x720) {
            session, _ in sessions.set(session)
        }
        let session = try #require(try await eventually { sessions.session })
        let output = URL(fileURLWithPath: directory.file("export.mp4"))
        session.outputURL = output
        session.outputFileType = .mp4
        session.shouldOptimizeForNetworkUse = true
        try await export(session)
        #expect(session.status == .completed && session.error == nil && session.progress == 1)
        let probe = try VideoFixtures.probe(output.path)
        #expect(probe.videoCodec == "h264" && probe.audioCodec == "aac")
        #expect(probe.width == 1280 && probe.height == 720 && abs(probe.duration - 2) < 0.2)
    }

    @Test func anExportIntoAMissingFolderFailsAndACancelledOneLeavesNothing() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let video = try videoAsset(width: 1280, height: 720, seconds: 20, in: directory)

        let missing = try #require(await session(for: video, preset: AVAssetExportPreset640x480))
        missing.outputURL = URL(fileURLWithPath: directory.file("no-such-folder/out.mp4"))
        try await export(missing)
        #expect(missing.status == .failed)
        #expect(missing.error?.localizedDescription.contains("No such file or directory") == true)

        let cancelled = try #require(await session(for: video, preset: AVAssetExportPresetHighestQuality))
        let output = URL(fileURLWithPath: directory.file("cancelled.mp4"))
        cancelled.outputURL = output
        let finished = Outcome()
        cancelled.exportAsynchronously { finished.set(true, nil) }
        #expect(try await eventually { cancelled.progress > 0 })
        cancelled.cancelExport()
        #expect(try await eventually { finished.isSet })
        #expect(cancelled.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: output.path))

        // A file this program holds exports with ffmpeg here, without the daemon.
        let local = try #require(AVAssetExportSession(asset: AVURLAsset(url: URL(fileURLWithPath: try VideoFixtures.clip(
            at: directory.file("local.mov"), width: 640, height: 360, seconds: 1))), presetName: AVAssetExportPresetPassthrough))
        local.outputURL = URL(fileURLWithPath: directory.file("local-copy.mov"))
        local.outputFileType = .mov
        try await export(local)
        #expect(local.status == .completed)
        #expect(try VideoFixtures.probe(directory.file("local-copy.mov")).width == 640)
        #expect(AVAssetExportSession(asset: AVURLAsset(url: output), presetName: "AVAssetExportPreset4K") == nil)
    }

    private func session(for video: PHAsset, preset: String) async -> AVAssetExportSession? {
        let sessions = SessionDelivery()
        PHImageManager.default().requestExportSession(forVideo: video, options: nil, exportPreset: preset) { session, _ in
            sessions.set(session)
        }
        return try? await eventually { sessions.session }
    }

    private func export(_ session: AVAssetExportSession) async throws {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            session.exportAsynchronously { done.resume() }
        }
    }
}

/// What a video request's handler was given.
final class VideoDelivery: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (AVAsset?, [AnyHashable: Any]?)?

    func set(_ asset: AVAsset?, _ info: [AnyHashable: Any]?) { lock.withLock { value = (asset, info) } }
    var asset: AVAsset? { lock.withLock { value?.0 } }
    var info: [AnyHashable: Any]? { lock.withLock { value?.1 } }
}

/// The export session a request gave.
final class SessionDelivery: @unchecked Sendable {
    private let lock = NSLock()
    private var value: AVAssetExportSession?

    func set(_ session: AVAssetExportSession?) { lock.withLock { value = session } }
    var session: AVAssetExportSession? { lock.withLock { value } }
}
