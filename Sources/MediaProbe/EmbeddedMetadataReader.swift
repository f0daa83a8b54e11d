import Foundation
import PhotoModel
import ToolProcess

/// Reads every metadata tag a file carries by running `exiftool`, with a time limit, into PhotoKit's groups.
public struct EmbeddedMetadataReader: Sendable {
    public var executable: String
    /// Seconds after which exiftool is killed.
    public var timeLimit: Int

    public init(executable: String = "/usr/bin/exiftool", timeLimit: Int = 30) {
        self.executable = executable
        self.timeLimit = timeLimit
    }

    /// The metadata of the file at `path`. Blocking: call it off the event loop.
    public func read(path: String) throws(MediaProbeError) -> AssetMetadata {
        let outcome: ToolProcess.Outcome
        do {
            // -G1: the directory of each tag; -n: numbers as numbers, not prose; dates stay as written.
            outcome = try ToolProcess(executable: executable, timeLimit: timeLimit)
                .run(["-json", "-G1", "-n", "-charset", "filename=utf8", "--", path])
        } catch {
            switch error {
            case .cannotStart(let reason): throw .probeUnavailable(reason)
            case .timedOut: throw .timedOut(path: path, seconds: timeLimit)
            }
        }
        guard outcome.status == 0,
              let files = try? JSONSerialization.jsonObject(with: outcome.output) as? [[String: Any]], let tags = files.first
        else {
            throw .unreadable(path: path, reason: outcome.lastErrorLine ?? "exiftool could not read it")
        }
        return Self.metadata(fromTags: tags)
    }

    /// Sorts exiftool's `Group:Tag` values into the groups; binary blobs and exiftool's own facts are left out.
    static func metadata(fromTags tags: [String: Any]) -> AssetMetadata {
        var metadata = AssetMetadata()
        var makerApple: [String: String] = [:], container: [String: String] = [:]
        for (qualifiedName, value) in tags {
            guard let colon = qualifiedName.firstIndex(of: ":"), let text = Self.text(value) else { continue }
            let group = String(qualifiedName[..<colon]), name = String(qualifiedName[qualifiedName.index(after: colon)...])
            switch group {
            case "IFD0": metadata.tiff[Self.appleNames[name] ?? name] = text
            case "ExifIFD": metadata.exif[Self.appleNames[name] ?? name] = text
            case "GPS": metadata.gps[name.hasPrefix("GPS") ? String(name.dropFirst(3)) : name] = text
            case "IPTC": metadata.iptc[name] = text
            case "Apple": makerApple[name] = text
            case "QuickTime", "Keys", "ItemList", "UserData": container[name] = text
            case let xmp where xmp.hasPrefix("XMP-"): metadata.xmp[xmp.dropFirst(4) + ":" + name] = text
            default: continue
            }
        }
        metadata.makerApple = makerApple.isEmpty ? nil : makerApple
        metadata.container = container.isEmpty ? nil : container
        return metadata
    }

    /// Where exiftool's name for an EXIF or TIFF tag differs from Apple's `kCGImageProperty…` key.
    static let appleNames = [
        "ModifyDate": "DateTime", "CreateDate": "DateTimeDigitized", "ISO": "ISOSpeedRatings",
        "ExifImageWidth": "PixelXDimension", "ExifImageHeight": "PixelYDimension",
        "FocalLengthIn35mmFormat": "FocalLenIn35mmFilm", "ExposureCompensation": "ExposureBiasValue",
        "SubSecTimeDigitized": "SubsecTimeDigitized",
        "SubSecTimeOriginal": "SubsecTimeOriginal", "SubSecTime": "SubsecTime",
    ]

    /// A tag's value as text: numbers in decimal, lists joined with ", "; nil for binary data.
    private static func text(_ value: Any) -> String? {
        switch value {
        case let text as String: text.hasPrefix("(Binary data ") || text.hasPrefix("base64:") ? nil : text
        case let number as NSNumber: number.stringValue
        case let list as [Any]: list.compactMap(text).joined(separator: ", ")
        default: nil
        }
    }
}
