import Foundation

/// Makes test videos and reads them back with the real `ffmpeg` and `ffprobe`.
public enum VideoFixtures {
    /// Writes a `seconds`-long clip of ffmpeg's test picture (or, with `noise`, of random pixels, which compress
    /// badly: a large file quickly) at `width`×`height` and 30 frames a second, with a tone, encoded with `codec`
    /// (`libx264`, `libx265`, `prores_ks`) in the container `path`'s extension names.
    @discardableResult
    public static func clip(at path: String, width: Int = 320, height: Int = 240, seconds: Double = 2,
                            codec: String = "libx264", noise: Bool = false) throws -> String {
        let picture = noise
            ? "nullsrc=size=\(width)x\(height):rate=30:duration=\(seconds),geq=random(1)*255:128:128"
            : "testsrc=size=\(width)x\(height):rate=30:duration=\(seconds)"
        var arguments = [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", picture,
            "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-c:v", codec,
        ]
        // ProRes has no speed presets and goes with uncompressed sound, as cameras write it.
        arguments += codec == "prores_ks" ? ["-c:a", "pcm_s16le"] : ["-preset", "ultrafast", "-c:a", "aac", "-pix_fmt", "yuv420p"]
        try runTool("/usr/bin/ffmpeg", arguments + ["-shortest", path])
        return path
    }

    /// What `ffprobe` says of a video file's first video and audio streams.
    public struct Probe: Sendable, Hashable {
        public var videoCodec: String?
        public var width: Int
        public var height: Int
        public var audioCodec: String?
        public var duration: Double
    }

    public static func probe(_ path: String) throws -> Probe {
        let output = try runTool("/usr/bin/ffprobe", [
            "-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height:format=duration",
            "-of", "json", path,
        ]).output
        let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] ?? [:]
        let streams = json["streams"] as? [[String: Any]] ?? []
        let video = streams.first { $0["codec_type"] as? String == "video" }
        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        let duration = ((json["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init) ?? 0
        return Probe(videoCodec: video?["codec_name"] as? String, width: video?["width"] as? Int ?? 0,
                     height: video?["height"] as? Int ?? 0, audioCodec: audio?["codec_name"] as? String, duration: duration)
    }
}
