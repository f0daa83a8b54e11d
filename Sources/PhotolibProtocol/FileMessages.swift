import PhotoModel

/// `Images.ReadFile`: a part of a file the daemon named to the caller; from `offset` (0) to the end by default.
public struct ReadFileParameters: Sendable, Hashable, Codable {
    public var path: String
    public var offset: Int?
    public var length: Int?

    public init(path: String, offset: Int? = nil, length: Int? = nil) {
        self.path = path
        self.offset = offset
        self.length = length
    }
}

/// The reply of `Images.ReadFile`: the `length` bytes from `offset` follow it, raw, on an upgraded call.
public struct ReadFileReply: Sendable, Hashable, Codable {
    public var fileSize: Int
    public var offset: Int
    public var length: Int

    public init(fileSize: Int, offset: Int, length: Int) {
        self.fileSize = fileSize
        self.offset = offset
        self.length = length
    }
}

/// `Images.ExportVideo`: a video exported with one of AVFoundation's presets, named as Apple names them
/// (`AVAssetExportPreset1280x720`).
public struct ExportVideoParameters: Sendable, Hashable, Codable {
    public var assetId: String
    public var preset: String
    /// `mp4` (the default) or `mov`.
    public var fileType: String?
    public var version: ImageVersion?
    public var optimizeForNetworkUse: Bool?

    public init(assetId: String, preset: String, fileType: String? = nil, version: ImageVersion? = nil,
                optimizeForNetworkUse: Bool? = nil) {
        self.assetId = assetId
        self.preset = preset
        self.fileType = fileType
        self.version = version
        self.optimizeForNetworkUse = optimizeForNetworkUse
    }
}

/// A reply of `Images.ExportVideo`: progress (with `more`), then the export's file.
public struct ExportVideoReply: Sendable, Hashable, Codable {
    /// The fraction done, 0...1.
    public var progress: Double
    public var path: String?
    public var fileSize: Int?
    public var mimeType: String?
    public var width: Int?
    public var height: Int?
    public var duration: Double?

    public init(progress: Double, path: String? = nil, fileSize: Int? = nil, mimeType: String? = nil, width: Int? = nil,
                height: Int? = nil, duration: Double? = nil) {
        self.progress = progress
        self.path = path
        self.fileSize = fileSize
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.duration = duration
    }
}
