import PhotoModel

/// What a video or audio file says about itself, as ffprobe reads it.
public struct MediaInfo: Sendable, Hashable {
    /// Whether the file holds moving pictures or only sound.
    public enum Kind: String, Sendable, Hashable {
        case video, audio
    }

    public var kind: Kind
    /// ffprobe's container names, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm".
    public var formatName: String
    /// Width as displayed, after the rotation; 0 for audio.
    public var pixelWidth: Int
    /// Height as displayed, after the rotation; 0 for audio.
    public var pixelHeight: Int
    /// Seconds.
    public var duration: Double
    /// Frames per second of the video stream; nil for audio or when unknown.
    public var frameRate: Double?
    /// Frames per second the camera captured, when the file says so (Android's `com.android.capture.fps`): above
    /// `frameRate` in a slow-motion recording, below it in a time-lapse.
    public var captureFrameRate: Double?
    /// When the recording was made, from the container's tags.
    public var creationDate: Timestamp?
    /// Whether `creationDate`'s offset is the recording's own (QuickTime's creationdate) rather than UTC.
    public var creationDateHasLocalOffset: Bool
    /// Where the recording was made (ISO 6709 location tags).
    public var location: Location?
    /// The recording device's make and model, from the container's tags.
    public var camera = CameraData()

    /// Whether playback is slower than life: a high frame rate kept in the file (an iPhone's 240 fps) or frames
    /// captured faster than they play (an Android slow-motion clip stored at 30 fps).
    public var isSlowMotion: Bool {
        guard kind == .video, let frameRate else { return false }
        return frameRate >= 100 || (captureFrameRate ?? 0) > frameRate * 1.5
    }

    /// Whether playback is faster than life: frames captured more slowly than they play.
    public var isTimeLapse: Bool {
        guard kind == .video, let frameRate, let captureFrameRate, captureFrameRate > 0 else { return false }
        return captureFrameRate * 1.5 < frameRate
    }

    public init(kind: Kind, formatName: String, pixelWidth: Int = 0, pixelHeight: Int = 0, duration: Double,
                frameRate: Double? = nil, creationDate: Timestamp? = nil, creationDateHasLocalOffset: Bool = false,
                location: Location? = nil) {
        self.kind = kind
        self.formatName = formatName
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.duration = duration
        self.frameRate = frameRate
        self.creationDate = creationDate
        self.creationDateHasLocalOffset = creationDateHasLocalOffset
        self.location = location
    }
}

/// Why a media file could not be read.
public enum MediaProbeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ffprobe is not installed or could not be started.
    case probeUnavailable(String)
    /// ffprobe could not read the file (not a media file, truncated, unsupported).
    case unreadable(path: String, reason: String)
    /// ffprobe did not finish in time and was stopped.
    case timedOut(path: String, seconds: Int)

    public var description: String {
        switch self {
        case .probeUnavailable(let reason): "ffprobe cannot run (\(reason)); install ffmpeg (Debian: ffmpeg)"
        case .unreadable(let path, let reason): "cannot read media file \(path): \(reason)"
        case .timedOut(let path, let seconds): "ffprobe took more than \(seconds) s on \(path) and was stopped"
        }
    }
}
