import Foundation
import MediaProbe
import Synchronization

/// AVFoundation's `AVAsset`: timed media. Here, a video or sound file.
open class AVAsset: NSObject, @unchecked Sendable {
    // @unchecked: an open class cannot be checked; `knownDuration` is read and written under its lock only.
    private let knownDuration: Mutex<CMTime?>
    /// How an export of this asset is made; a Photos asset's goes through the daemon.
    package let exporter: (any AVAssetExporting)?

    package init(duration: CMTime?, exporter: (any AVAssetExporting)?) {
        knownDuration = Mutex(duration)
        self.exporter = exporter
    }

    /// The length of the media; read from the file (with ffprobe) the first time it is asked for when not known.
    open var duration: CMTime {
        if let known = knownDuration.withLock({ $0 }) { return known }
        let probed =
            (self as? AVURLAsset).flatMap { asset in
                try? MediaProber().probe(path: asset.url.path).duration
            }.map { CMTime(seconds: $0, preferredTimescale: 600) } ?? .invalid
        knownDuration.withLock { $0 = probed }
        return probed
    }
}

/// AVFoundation's `AVURLAsset`: the media in a file.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    // @unchecked: immutable; Swift cannot check a class open to subclasses, or a subclass of one.
    public let url: URL

    /// The media in the file at `url`; `options` are accepted as AVFoundation's are, and not used.
    public init(url: URL, options: [String: Any]? = nil) {
        self.url = url
        super.init(duration: nil, exporter: nil)
    }

    /// A Photos asset's file: its duration known, its exports made by the daemon.
    package init(url: URL, duration: CMTime, exporter: any AVAssetExporting) {
        self.url = url
        super.init(duration: duration, exporter: exporter)
    }
}

/// AVFoundation's `AVAudioMix`: how audio tracks are mixed. Photos gives none (nil), as for most videos on Apple's
/// platforms.
open class AVAudioMix: NSObject, @unchecked Sendable {
    // @unchecked: no state; Swift cannot check a class open to subclasses, or a subclass of one.
}

/// AVFoundation's `AVPlayerItem`: an asset as a player presents it.
open class AVPlayerItem: NSObject, @unchecked Sendable {
    // @unchecked: immutable; Swift cannot check a class open to subclasses, or a subclass of one.
    public let asset: AVAsset

    public init(asset: AVAsset) {
        self.asset = asset
    }

    public convenience init(url: URL) {
        self.init(asset: AVURLAsset(url: url))
    }
}
