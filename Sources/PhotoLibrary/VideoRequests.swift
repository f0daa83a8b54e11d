import Foundation

/// Videos converted by the daemon, as AVFoundation's export presets convert them.
extension PhotoLibrary {
    /// Exports the video asset with `preset` (Apple's name: `AVAssetExportPreset1280x720`): progress replies
    /// (0...1) and last the export's file, whose bytes `transfers` reads. Cancelling the iteration stops ffmpeg.
    public func exportVideo(_ assetId: String, preset: String, fileType: String? = nil, version: ImageVersion? = nil,
                            optimizeForNetworkUse: Bool = false) -> AsyncThrowingStream<ExportVideoReply, any Error> {
        stream(ImagesMethod.exportVideo, ExportVideoParameters(
            assetId: assetId, preset: preset, fileType: fileType, version: version,
            optimizeForNetworkUse: optimizeForNetworkUse))
    }
}
