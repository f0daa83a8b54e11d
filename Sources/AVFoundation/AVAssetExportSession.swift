import Foundation
import MediaProbe
import Synchronization
import VideoExport

/// AVFoundation's `AVFileType`: a container's type identifier.
public struct AVFileType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public static let mp4 = AVFileType("public.mpeg-4")
    public static let mov = AVFileType("com.apple.quicktime-movie")

    /// The container ffmpeg writes for the type; nil for one this module does not write.
    var container: ExportFileType? {
        switch self {
        case .mp4: .mp4
        case .mov: .mov
        default: nil
        }
    }
}

public let AVAssetExportPresetLowQuality = ExportPreset.lowQuality.rawValue
public let AVAssetExportPresetMediumQuality = ExportPreset.mediumQuality.rawValue
public let AVAssetExportPresetHighestQuality = ExportPreset.highestQuality.rawValue
public let AVAssetExportPreset640x480 = ExportPreset.size640x480.rawValue
public let AVAssetExportPreset1280x720 = ExportPreset.size1280x720.rawValue
public let AVAssetExportPreset1920x1080 = ExportPreset.size1920x1080.rawValue
public let AVAssetExportPresetPassthrough = ExportPreset.passthrough.rawValue

/// What an export asks for.
package struct AVExportRequest: Sendable {
    package var preset: ExportPreset
    package var fileType: ExportFileType
    package var optimizesForNetworkUse: Bool
    package var outputURL: URL
}

/// Stops an export in progress from any thread.
package final class AVExportCancellation: Sendable {
    private struct State {
        var cancelled = false
        /// Run on the thread that cancels.
        var actions: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    package init() {}

    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs `action` when the export is cancelled (at once if it is already).
    package func onCancel(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if !state.cancelled { state.actions.append(action) }
            return state.cancelled
        }
        if now { action() }
    }

    func cancel() {
        let pending = state.withLock { state -> [@Sendable () -> Void] in
            state.cancelled = true
            defer { state.actions = [] }
            return state.actions
        }
        pending.forEach { $0() }
    }
}

/// How an asset's exports are made: by the daemon for a Photos asset, by ffmpeg here for a file.
package protocol AVAssetExporting: Sendable {
    /// Writes the export to `request.outputURL`, calling `progress` with the fraction done; blocking.
    func export(
        _ request: AVExportRequest, progress: @escaping @Sendable (Float) -> Void,
        cancellation: AVExportCancellation) throws
}

/// Exports of a file this process reads, with ffmpeg here.
struct LocalExporter: AVAssetExporting {
    let asset: AVURLAsset

    func export(
        _ request: AVExportRequest, progress: @escaping @Sendable (Float) -> Void,
        cancellation: AVExportCancellation
    ) throws {
        let probe = try MediaProber().probe(path: asset.url.path)
        let export = VideoExport(
            input: asset.url.path, output: request.outputURL.path, preset: request.preset,
            fileType: request.fileType, sourceSize: (probe.pixelWidth, probe.pixelHeight),
            duration: probe.duration,
            optimizesForNetworkUse: request.optimizesForNetworkUse)
        cancellation.onCancel { export.cancel() }
        try export.run { progress(Float($0)) }
    }
}

/// AVFoundation's `AVAssetExportSession`: an asset written to a file with one of the export presets. An export
/// writes a real H.264/AAC file of the preset's size with ffmpeg (the streams copied for the passthrough preset):
/// the daemon's for a Photos asset, here for a file.
open class AVAssetExportSession: NSObject, @unchecked Sendable {
    // @unchecked: an open class cannot be checked; `state` is behind its lock, the settings are set before the export.

    /// AVFoundation's `AVAssetExportSession.Status`, with Apple's raw values.
    public enum Status: Int, Sendable {
        case unknown = 0
        case waiting = 1
        case exporting = 2
        case completed = 3
        case failed = 4
        case cancelled = 5
    }

    public let asset: AVAsset
    public let presetName: String
    /// Where the export is written; the file must not exist, and its folder must.
    open var outputURL: URL?
    /// `.mp4` or `.mov`; nil takes the output's extension (`.mov` gives QuickTime, anything else MPEG-4).
    open var outputFileType: AVFileType?
    /// The index first, so that a player can start before the whole file has arrived.
    open var shouldOptimizeForNetworkUse = false

    private let preset: ExportPreset
    private let state = Mutex(State())
    private let cancellation = AVExportCancellation()

    /// An export of `asset` with `presetName` (one of the `AVAssetExportPreset…` names); nil for a preset this
    /// module does not know.
    public init?(asset: AVAsset, presetName: String) {
        guard let preset = ExportPreset(rawValue: presetName) else { return nil }
        self.asset = asset
        self.presetName = presetName
        self.preset = preset
    }

    /// The presets of `asset`: every preset here.
    open class func exportPresets(compatibleWith asset: AVAsset) -> [String] {
        ExportPreset.allCases.map(\.rawValue)
    }

    open var supportedFileTypes: [AVFileType] { [.mp4, .mov] }

    private struct State {
        var status = Status.unknown
        var failure: (any Error)?
        var fraction: Float = 0
    }

    open var status: Status { state.withLock { $0.status } }
    /// Why the export failed, when it did.
    open var error: (any Error)? { state.withLock { $0.failure } }
    /// The fraction done, 0...1.
    open var progress: Float { state.withLock { $0.fraction } }

    /// Starts the export on a thread of its own and calls `handler` there when it is over (completed, failed or
    /// cancelled).
    open func exportAsynchronously(completionHandler handler: @escaping @Sendable () -> Void) {
        guard
            state.withLock({ state -> Bool in
                guard state.status == .unknown else { return false }
                state.status = cancellation.isCancelled ? .cancelled : .exporting
                return state.status == .exporting
            })
        else {
            handler()
            return
        }
        Thread { [self] in
            finish(Result { try export() })
            handler()
        }.start()
    }

    /// Stops the export: ffmpeg is stopped, no file is left, and the status is `cancelled`.
    open func cancelExport() {
        state.withLock { state in if state.status == .unknown || state.status == .waiting { state.status = .cancelled }
        }
        cancellation.cancel()
    }

    private func export() throws {
        guard let outputURL else { throw AVExportFailure("the export session has no outputURL") }
        let fileType = outputFileType ?? (outputURL.pathExtension.lowercased() == "mov" ? .mov : .mp4)
        guard let container = fileType.container else {
            throw AVExportFailure("the file type \(fileType.rawValue) is not one this module writes (.mp4, .mov)")
        }
        guard !FileManager.default.fileExists(atPath: outputURL.path) else {
            throw AVExportFailure("a file exists at \(outputURL.path)")
        }
        let folder = outputURL.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder) else {
            throw AVExportFailure(
                "cannot write \(outputURL.path): the folder \(folder) does not exist (No such file or directory)")
        }
        let request = AVExportRequest(
            preset: preset, fileType: container, optimizesForNetworkUse: shouldOptimizeForNetworkUse,
            outputURL: outputURL)
        var exporter = asset.exporter
        if exporter == nil, let file = asset as? AVURLAsset { exporter = LocalExporter(asset: file) }
        guard let exporter else { throw AVExportFailure("the asset has no file to export") }
        try exporter.export(
            request, progress: { [self] done in state.withLock { $0.fraction = done } },
            cancellation: cancellation)
    }

    private func finish(_ outcome: Result<Void, any Error>) {
        state.withLock { state in
            switch outcome {
            case .success:
                state.status = .completed
                state.fraction = 1
            case .failure where cancellation.isCancelled:
                state.status = .cancelled
            case .failure(let error):
                state.status = .failed
                state.failure = error
            }
        }
    }
}

/// Why an export failed, for an export session's `error`.
struct AVExportFailure: Error, CustomStringConvertible, CustomNSError {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    static var errorDomain: String { "AVFoundationErrorDomain" }
    var errorCode: Int { -11800 }
    var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: description] }
}
