import Foundation
import Glibc
import PhotoLibrary

public typealias PHAssetVideoProgressHandler = (Double, Error?, UnsafeMutablePointer<ObjCBool>, [AnyHashable: Any]?) ->
    Void

/// PhotoKit's `PHVideoRequestOptionsVersion`.
public enum PHVideoRequestOptionsVersion: Int, Sendable {
    case current = 0
    case original = 1
}

/// PhotoKit's `PHVideoRequestOptionsDeliveryMode`.
public enum PHVideoRequestOptionsDeliveryMode: Int, Sendable {
    /// The video's own file.
    case automatic = 0
    /// The video's own file.
    case highQualityFormat = 1
    /// An H.264/AAC MP4 fitting 568×320, made by the daemon (any video plays then: HEVC, ProRes…).
    case mediumQualityFormat = 2
    /// An H.264/AAC MP4 fitting 224×168.
    case fastFormat = 3

    /// The export preset that makes this format; nil for the video's own file.
    var exportPreset: String? {
        switch self {
        case .automatic, .highQualityFormat: nil
        case .mediumQualityFormat: AVAssetExportPresetMediumQuality
        case .fastFormat: AVAssetExportPresetLowQuality
        }
    }
}

/// PhotoKit's `PHVideoRequestOptions`.
public final class PHVideoRequestOptions: NSObject, @unchecked Sendable {
    // @unchecked: settings, as in PhotoKit: the caller sets them before the call, which only reads them.
    public var version: PHVideoRequestOptionsVersion = .current
    public var deliveryMode: PHVideoRequestOptionsDeliveryMode = .automatic
    /// Every file is local: there is no network to allow.
    public var isNetworkAccessAllowed = false
    /// Called with the fraction done while the daemon converts the video (medium and fast formats), and with 1.0.
    public var progressHandler: PHAssetVideoProgressHandler?

    public override init() {}
}

extension PHImageManager {
    /// PhotoKit's `requestAVAsset`: an `AVURLAsset` of a file this process can read (the daemon's own when it can,
    /// else a copy in this user's cache) in the format `options.deliveryMode` asks for; no audio mix.
    @discardableResult
    public func requestAVAsset(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?,
        resultHandler: @escaping (AVAsset?, AVAudioMix?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let handler = Unchecked(resultHandler)
        return requestVideo(asset, options: options) { video, info in handler.value(video, nil, info) }
    }

    /// PhotoKit's `requestPlayerItem`: a player item of the asset `requestAVAsset` gives.
    @discardableResult
    public func requestPlayerItem(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?,
        resultHandler: @escaping (AVPlayerItem?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let handler = Unchecked(resultHandler)
        return requestVideo(asset, options: options) { video, info in
            handler.value(video.map { AVPlayerItem(asset: $0) }, info)
        }
    }

    /// PhotoKit's `requestExportSession`: an export session of the video with `exportPreset`; its export is made by
    /// the daemon (ffmpeg) and written to the session's `outputURL`.
    @discardableResult
    public func requestExportSession(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?, exportPreset: String,
        resultHandler: @escaping (AVAssetExportSession?, [AnyHashable: Any]?) -> Void
    )
        -> PHImageRequestID
    {
        let requestId = Self.nextRequestId()
        let handler = Unchecked(resultHandler)
        let version: ImageVersion = options?.version == .original ? .original : .current
        let source = AVURLAsset(
            url: URL(fileURLWithPath: "/"), duration: CMTime(seconds: asset.duration, preferredTimescale: 600),
            exporter: LibraryVideoExporter(assetId: asset.localIdentifier, version: version))
        DispatchQueue(label: "photos.export.\(requestId)").async {
            guard asset.mediaType == .video else {
                let error = PHPhotosError(
                    .requestNotSupportedForAsset, reason: "asset \(asset.localIdentifier) is not a video")
                return handler.value(nil, [PHImageErrorKey: error, PHImageResultRequestIDKey: requestId])
            }
            guard let session = AVAssetExportSession(asset: source, presetName: exportPreset) else {
                let error = PHPhotosError(.invalidParameter, reason: "\(exportPreset) is not an export preset")
                return handler.value(nil, [PHImageErrorKey: error, PHImageResultRequestIDKey: requestId])
            }
            handler.value(session, [PHImageResultRequestIDKey: requestId])
        }
        return requestId
    }

    /// Finds (or has the daemon convert) the video's file, copies it where this process can read it when it cannot,
    /// and calls `deliver` once, on a thread of the request's own.
    private func requestVideo(
        _ asset: PHAsset, options: PHVideoRequestOptions?,
        deliver: @escaping (AVURLAsset?, [AnyHashable: Any]) -> Void
    ) -> PHImageRequestID {
        let requestId = Self.nextRequestId()
        let assetId = asset.localIdentifier, duration = asset.duration
        let version: ImageVersion = options?.version == .original ? .original : .current
        let preset = options?.deliveryMode.exportPreset
        let progress = Unchecked(options?.progressHandler)
        let cancellation = TransferCancellation()
        requests.withLock { $0.dataTransfers[requestId] = cancellation }
        let work = Unchecked(deliver)
        Thread { [self] in
            defer { _ = requests.withLock { $0.dataTransfers.removeValue(forKey: requestId) } }
            do {
                guard asset.mediaType == .video else {
                    throw PHPhotosError(.requestNotSupportedForAsset, reason: "asset \(assetId) is not a video")
                }
                let path = try VideoFiles.file(
                    of: assetId, version: version, preset: preset, cancellation: cancellation
                ) { done in
                    var stop = ObjCBool(false)
                    progress.value?(done, nil, &stop, nil)
                    if stop.boolValue { cancellation.cancel() }
                }
                let url = URL(
                    fileURLWithPath: try ReadableCopies.readable(
                        path, name: "\(assetId)-\(preset ?? version.rawValue)",
                        cancellation: cancellation))
                let video = AVURLAsset(
                    url: url, duration: CMTime(seconds: duration, preferredTimescale: 600),
                    exporter: LibraryVideoExporter(assetId: assetId, version: version))
                work.value(video, [PHImageResultRequestIDKey: requestId, PHImageFileURLKey: url])
            } catch  where cancellation.isCancelled {
                work.value(nil, [PHImageCancelledKey: true, PHImageResultRequestIDKey: requestId])
            } catch {
                work.value(nil, [PHImageErrorKey: PHPhotosError(error), PHImageResultRequestIDKey: requestId])
            }
        }.start()
        return requestId
    }
}

/// The files of video requests.
enum VideoFiles {
    /// The daemon's file of the video: its own (`preset` nil), or its export with `preset`, `progress` hearing how far
    /// the export is.
    static func file(
        of assetId: String, version: ImageVersion, preset: String?, cancellation: TransferCancellation,
        progress: @escaping @Sendable (Double) -> Void
    ) throws -> String {
        guard let preset else {
            return try LibraryClient.shared.call { library throws(PhotoLibraryError) in
                try await library.requestImageData(for: assetId, version: version).path
            }
        }
        return try export(
            assetId, version: version, preset: preset, fileType: "mp4", optimizeForNetworkUse: false,
            cancellation: cancellation, progress: progress
        ).path
    }

    /// Has the daemon export the video, on a connection of its own (an export may take minutes), and returns its
    /// reply with the file; cancelling stops ffmpeg.
    static func export(
        _ assetId: String, version: ImageVersion, preset: String, fileType: String,
        optimizeForNetworkUse: Bool, cancellation: TransferCancellation,
        progress: @escaping @Sendable (Double) -> Void
    ) throws -> (path: String, reply: ExportVideoReply) {
        let outcome = Pending<ExportVideoReply>()
        let task = Task(executorPreference: ClientExecutor.shared) {
            do {
                let library = try await LibraryClient.shared.separateConnection()
                defer { ClientExecutor.start { await library.close() } }
                var final: ExportVideoReply?
                for try await reply in library.exportVideo(
                    assetId, preset: preset, fileType: fileType, version: version,
                    optimizeForNetworkUse: optimizeForNetworkUse)
                {
                    if reply.path == nil { progress(reply.progress) } else { final = reply }
                }
                guard let final else { throw PHPhotosError(.internalError, reason: "the daemon sent no export") }
                outcome.fulfill(.success(final))
            } catch {
                outcome.fulfill(.failure(error))
            }
        }
        cancellation.onCancel { task.cancel() }
        let reply = try outcome.get()
        progress(1)
        return (reply.path ?? "", reply)
    }
}

/// Exports of a Photos video, made by the daemon and copied to the session's output.
struct LibraryVideoExporter: AVAssetExporting {
    let assetId: String
    let version: ImageVersion

    func export(
        _ request: AVExportRequest, progress: @escaping @Sendable (Float) -> Void,
        cancellation: AVExportCancellation
    ) throws {
        let transfer = TransferCancellation()
        cancellation.onCancel { transfer.cancel() }
        do {
            let exported = try VideoFiles.export(
                assetId, version: version, preset: request.preset.rawValue,
                fileType: request.fileType.rawValue,
                optimizeForNetworkUse: request.optimizesForNetworkUse,
                cancellation: transfer
            ) { progress(Float($0) * 0.95) }
            try LibraryClient.shared.transfers.copy(exported.path, to: request.outputURL.path, cancellation: transfer)
        } catch {
            throw PHPhotosError(error)
        }
    }
}
