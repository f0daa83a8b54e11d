import Digests
import Foundation
import Glibc
import HexEncoding
import Imaging
import PhotolibProtocol
import VideoExport

/// A video export asked for by `ExportVideo`.
package struct VideoExportRequest: Sendable, Hashable {
    var assetId: String
    var preset: ExportPreset
    var fileType: ExportFileType
    var version: ImageVersion
    var optimizesForNetworkUse: Bool

    package init(
        assetId: String, preset: ExportPreset, fileType: ExportFileType, version: ImageVersion,
        optimizesForNetworkUse: Bool
    ) {
        self.assetId = assetId
        self.preset = preset
        self.fileType = fileType
        self.version = version
        self.optimizesForNetworkUse = optimizesForNetworkUse
    }
}

/// An export done: its file, in the cache's `exports` folder.
package struct ExportedVideo: Sendable, Hashable {
    package var path: String
    package var fileSize: Int
    package var width: Int
    package var height: Int
    package var duration: Double
    package var mimeType: String
}

/// Videos exported with ffmpeg (`ExportVideo`): each kept in the cache's `exports` folder under a name made of the
/// request and its source's version, and handed out again while that source is unchanged; the least recently used
/// go once they add up to more than `byteLimit`. An export that fails or is cancelled leaves no file.
package final class VideoExports: Sendable {
    static let byteLimit = 2 << 30

    let directory: String
    private let sources: AssetImageSources

    /// Exports in `directory`, which is created and rid of what an interrupted export left.
    package init(directory: String, sources: AssetImageSources) throws {
        self.directory = directory
        self.sources = sources
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".part") {
            unlink(directory + "/" + name)
        }
    }

    /// The export `request` asks for, made unless a current one is kept; `progress` hears the fraction done. Cancelling
    /// the task kills ffmpeg.
    package func export(_ request: VideoExportRequest, progress: @escaping @Sendable (Double) -> Void) async throws
        -> ExportedVideo
    {
        let source = try await sources.source(of: request.assetId).selecting(request.version)
        guard case .video(let duration) = source.kind else {
            throw ImageError.unavailable(assetId: request.assetId, reason: "it is not a video")
        }
        let version = try source.requireVersion()
        let displayed = source.displayedSize ?? PixelSize(width: 0, height: 0)
        let size = request.preset.outputSize(width: displayed.width, height: displayed.height)
        let path = "\(directory)/\(Self.name(of: request, sourceVersion: version)).\(request.fileType.rawValue)"
        if let kept = Self.fileSize(at: path) {
            // Used again: the last to go.
            utimensat(AT_FDCWD, path, nil, 0)
            progress(1)
            return ExportedVideo(
                path: path, fileSize: kept, width: size.width, height: size.height, duration: duration,
                mimeType: request.fileType.mimeType)
        }
        let export = VideoExport(
            input: source.path, output: path, preset: request.preset, fileType: request.fileType,
            sourceSize: (displayed.width, displayed.height), duration: duration,
            optimizesForNetworkUse: request.optimizesForNetworkUse)
        do {
            try await Self.run(export, progress: progress)
        } catch let error as VideoExportError {
            if error == .cancelled { throw CancellationError() }
            throw ImageError.unavailable(assetId: request.assetId, reason: "the export failed: \(error)")
        }
        removeLeastRecentlyUsed(keeping: path)
        return ExportedVideo(
            path: path, fileSize: Self.fileSize(at: path) ?? 0, width: size.width, height: size.height,
            duration: duration, mimeType: request.fileType.mimeType)
    }

    /// Runs `export` on a thread of its own (an export may take minutes: no pool's thread is held that long).
    private static func run(_ export: VideoExport, progress: @escaping @Sendable (Double) -> Void) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (finished: CheckedContinuation<Void, any Error>) in
                Thread {
                    do {
                        try export.run(progress: progress)
                        finished.resume()
                    } catch {
                        finished.resume(throwing: error)
                    }
                }.start()
            }
        } onCancel: {
            export.cancel()
        }
    }

    private static func name(of request: VideoExportRequest, sourceVersion: String) -> String {
        let key = [
            request.assetId, request.preset.rawValue, request.version.rawValue,
            request.optimizesForNetworkUse ? "fast-start" : "", sourceVersion,
        ].joined(separator: "\n")
        return Digest.sha256(key.utf8).prefix(16).lowercaseHex
    }

    private static func fileSize(at path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// Removes the least recently used exports but `kept` while they add up to more than `byteLimit`.
    private func removeLeastRecentlyUsed(keeping kept: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        var files: [(path: String, size: Int, used: Int)] = names.filter { !$0.hasSuffix(".part") }.compactMap { name in
            let path = directory + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return (path, Int(info.st_size), info.st_mtim.tv_sec)
        }
        var total = files.reduce(0) { $0 + $1.size }
        files.sort { $0.used < $1.used }
        for file in files where total > Self.byteLimit && file.path != kept {
            unlink(file.path)
            total -= file.size
        }
    }
}
