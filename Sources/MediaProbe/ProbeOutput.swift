import Foundation
import PhotoModel

/// The parts of `ffprobe -print_format json -show_format -show_streams` output that matter to a photo library.
struct ProbeOutput: Decodable {
    struct Stream: Decodable {
        struct Disposition: Decodable {
            var attached_pic: Int?
        }

        struct SideData: Decodable {
            var rotation: Double?
        }

        var codec_type: String?
        var width: Int?
        var height: Int?
        var avg_frame_rate: String?
        var r_frame_rate: String?
        var duration: String?
        var disposition: Disposition?
        var tags: [String: String]?
        var side_data_list: [SideData]?
    }

    struct Format: Decodable {
        var format_name: String?
        var duration: String?
        var tags: [String: String]?
    }

    var streams: [Stream]?
    var format: Format?

    /// The media information, or nil when the file has neither a video nor an audio stream.
    func mediaInfo() -> MediaInfo? {
        let streams = streams ?? []
        let video = streams.first { $0.codec_type == "video" && $0.disposition?.attached_pic != 1 }
        guard video != nil || streams.contains(where: { $0.codec_type == "audio" }) else { return nil }
        let tags = (format?.tags ?? [:]).merging(video?.tags ?? [:]) { format, _ in format }
        let duration = Double(format?.duration ?? "") ?? Double(video?.duration ?? "") ?? 0
        var info = MediaInfo(kind: video == nil ? .audio : .video, formatName: format?.format_name ?? "unknown",
                             duration: duration.isFinite ? max(0, duration) : 0)
        if let video {
            let rotation = video.side_data_list?.compactMap(\.rotation).first ?? Double(video.tags?["rotate"] ?? "") ?? 0
            let turnsQuarter = Int(abs(rotation.rounded())) % 180 == 90
            let (width, height) = (video.width ?? 0, video.height ?? 0)
            (info.pixelWidth, info.pixelHeight) = turnsQuarter ? (height, width) : (width, height)
            info.frameRate = Self.rate(video.avg_frame_rate) ?? Self.rate(video.r_frame_rate)
            info.captureFrameRate = tags["com.android.capture.fps"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
        }
        if let local = tags["com.apple.quicktime.creationdate"].flatMap(Self.timestamp) {
            info.creationDate = local
            info.creationDateHasLocalOffset = true
        } else {
            info.creationDate = tags["creation_time"].flatMap(Self.timestamp)
        }
        info.location = (tags["com.apple.quicktime.location.ISO6709"] ?? tags["location"]).flatMap(Self.location(iso6709:))
        info.camera = CameraData(make: (tags["com.apple.quicktime.make"] ?? tags["make"]).flatMap(Self.nonEmpty),
                                 model: (tags["com.apple.quicktime.model"] ?? tags["model"]).flatMap(Self.nonEmpty))
        return info
    }

    /// "30000/1001" → 29.97; nil for "0/0" and other non-rates.
    static func rate(_ text: String?) -> Double? {
        guard let parts = text?.split(separator: "/"), parts.count == 2,
              let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0, numerator > 0
        else { return nil }
        return numerator / denominator
    }

    /// ISO 8601 as ffprobe prints tags ("2024-01-31T09:15:00.000000Z", "2024-01-31T10:15:00+0100");
    /// nil for malformed dates and for the zero dates of QuickTime and Unix.
    static func timestamp(_ text: String) -> Timestamp? {
        var normalized = text.trimmingCharacters(in: .whitespaces)
        if normalized.count >= 5, let sign = normalized.dropLast(4).last, sign == "+" || sign == "-",
           normalized.suffix(4).allSatisfy(\.isNumber) {
            normalized.insert(":", at: normalized.index(normalized.endIndex, offsetBy: -2))
        }
        if normalized.count == 19 { normalized += "Z" }
        guard let timestamp = Timestamp(rfc3339: normalized), timestamp.secondsSince1970 > 86_400 else { return nil }
        return timestamp
    }

    /// ISO 6709 ("+48.8584+002.2945+035.000/"): latitude, longitude and an optional altitude.
    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    static func location(iso6709 text: String) -> Location? {
        var numbers: [Double] = []
        var current = ""
        for character in text {
            if character == "+" || character == "-" || character == "/" {
                if let value = Double(current) { numbers.append(value) }
                current = character == "/" ? "" : String(character)
            } else if character.isNumber || character == "." {
                current.append(character)
            } else {
                return nil
            }
        }
        if let value = Double(current) { numbers.append(value) }
        guard numbers.count >= 2 else { return nil }
        let location = Location(latitude: numbers[0], longitude: numbers[1], altitude: numbers.count > 2 ? numbers[2] : nil)
        return location.isValid && !(location.latitude == 0 && location.longitude == 0) ? location : nil
    }
}
