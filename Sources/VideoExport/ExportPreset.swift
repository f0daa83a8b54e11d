/// AVFoundation's export presets, named on the wire as Apple names their constants.
public enum ExportPreset: String, Sendable, Hashable, CaseIterable {
    case lowQuality = "AVAssetExportPresetLowQuality"
    case mediumQuality = "AVAssetExportPresetMediumQuality"
    case highestQuality = "AVAssetExportPresetHighestQuality"
    case size640x480 = "AVAssetExportPreset640x480"
    case size1280x720 = "AVAssetExportPreset1280x720"
    case size1920x1080 = "AVAssetExportPreset1920x1080"
    /// The streams as they are, in the container asked for.
    case passthrough = "AVAssetExportPresetPassthrough"

    /// The box a preset's picture fits in, its long side first; nil for the source's own size.
    var box: (long: Int, short: Int)? {
        switch self {
        case .lowQuality: (224, 168)
        case .mediumQuality: (568, 320)
        case .size640x480: (640, 480)
        case .size1280x720: (1280, 720)
        case .size1920x1080: (1920, 1080)
        case .highestQuality, .passthrough: nil
        }
    }

    /// The size of the exported picture for a source of `width`×`height` (as displayed): scaled down to fit the
    /// preset's box turned the way the picture is, its aspect kept, never enlarged, each side even (as H.264's
    /// 4:2:0 needs). The source's own size for the passthrough preset.
    public func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (width, height) }
        guard self != .passthrough else { return (width, height) }
        // The nearest even number, but never more than the source's side.
        let even = { (side: Double, source: Int) in max(2, min(Int((side / 2).rounded()) * 2, source / 2 * 2)) }
        let scale: Double
        if let box {
            let (boxWidth, boxHeight) = width >= height ? (box.long, box.short) : (box.short, box.long)
            scale = min(1, Double(boxWidth) / Double(width), Double(boxHeight) / Double(height))
        } else {
            scale = 1
        }
        return (even(Double(width) * scale, width), even(Double(height) * scale, height))
    }
}

/// The container of an export.
public enum ExportFileType: String, Sendable, Hashable, CaseIterable {
    case mp4, mov

    public var mimeType: String { self == .mp4 ? "video/mp4" : "video/quicktime" }
}
