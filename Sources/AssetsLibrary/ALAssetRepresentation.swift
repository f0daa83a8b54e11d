import Foundation
import PhotoLibrary
import Photos

/// ImageIO's thumbnail options, which `cgImage(withOptions:)` reads (ImageIO does not exist on Linux).
public let kCGImageSourceThumbnailMaxPixelSize = "kCGImageSourceThumbnailMaxPixelSize"
public let kCGImageSourceCreateThumbnailWithTransform = "kCGImageSourceCreateThumbnailWithTransform"
public let kCGImageSourceCreateThumbnailFromImageAlways = "kCGImageSourceCreateThumbnailFromImageAlways"
public let kCGImageSourceCreateThumbnailFromImageIfAbsent = "kCGImageSourceCreateThumbnailFromImageIfAbsent"

/// AssetsLibrary's `ALAssetRepresentation`: the asset's file and images made from it.
public final class ALAssetRepresentation: NSObject, Sendable {
    let asset: Asset

    init(_ asset: Asset) {
        self.asset = asset
    }

    /// The size of the original file in bytes.
    public func size() -> Int64 { asset.fileSize }

    public func filename() -> String { asset.originalFilename }

    public func url() -> URL { AssetURL.asset(asset.id, filename: asset.originalFilename) }

    /// The uniform type identifier of the original file.
    public func uti() -> String {
        let mimeType: String =
            switch (asset.originalFilename as NSString).pathExtension.lowercased() {
            case "jpg", "jpeg": "image/jpeg"
            case "png": "image/png"
            case "heic": "image/heic"
            case "heif": "image/heif"
            case "webp": "image/webp"
            case "tif", "tiff": "image/tiff"
            case "gif": "image/gif"
            case "mov": "video/quicktime"
            case "mp4", "m4v": "video/mp4"
            default: asset.mediaType == .video ? "video/mp4" : "image/jpeg"
            }
        return UniformType.identifier(forMIMEType: mimeType)
    }

    /// Width and height as displayed, after the orientation.
    public func dimensions() -> CGSize { CGSize(width: asset.pixelWidth, height: asset.pixelHeight) }

    /// The orientation of the original file.
    public func orientation() -> ALAssetOrientation { ALAssetOrientation(exif: asset.orientation) }

    public func scale() -> Float { 1 }

    /// The image's properties as ImageIO names them: size and orientation, and the `{Exif}`, `{GPS}`, `{TIFF}`,
    /// `{IPTC}` and `{MakerApple}` groups as the file writes them (numbers as `NSNumber`). When the file cannot be
    /// read, the groups hold what the library knows: the capture date and place.
    public func metadata() -> [AnyHashable: Any]! {
        var metadata: [AnyHashable: Any] = [
            "PixelWidth": asset.pixelWidth, "PixelHeight": asset.pixelHeight, "Orientation": asset.orientation,
        ]
        let assetId = asset.id
        if let written = try? LibraryClient.shared.call({ library throws(PhotoLibraryError) in
            try await library.fetchAssetMetadata(for: assetId)
        }) {
            let groups = [
                ("{Exif}", written.exif), ("{GPS}", written.gps), ("{TIFF}", written.tiff), ("{IPTC}", written.iptc),
                ("{MakerApple}", written.makerApple ?? [:]),
            ]
            for (name, values) in groups where !values.isEmpty {
                metadata[name] = values.mapValues { text -> Any in Self.number(text) ?? text }
            }
            return metadata
        }
        if let location = asset.location {
            var gps: [String: Any] = [
                "Latitude": abs(location.latitude), "LatitudeRef": location.latitude < 0 ? "S" : "N",
                "Longitude": abs(location.longitude), "LongitudeRef": location.longitude < 0 ? "W" : "E",
            ]
            if let altitude = location.altitude { gps["Altitude"] = altitude }
            metadata["{GPS}"] = gps
        }
        if let date = asset.creationDate {
            metadata["{Exif}"] = ["DateTimeOriginal": Self.exifDate(date)]
        }
        return metadata
    }

    /// A value ImageIO would give as a number: plain decimal text ("2.8", "400"), not dates or versions ("0232").
    private static func number(_ text: String) -> NSNumber? {
        guard let first = text.first, first != "0" || text == "0" || text.hasPrefix("0."),
            text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") })
        else { return nil }
        if let integer = Int(text) { return NSNumber(value: integer) }
        return Double(text).map { NSNumber(value: $0) }
    }

    /// An image fitting 1920 pixels, with the asset's edit.
    public func fullScreenImage() -> PHImage! {
        ALAsset.image(
            RequestImageParameters(
                assetId: asset.id, targetSize: ImageSize(width: 1920, height: 1920),
                resizeMode: .exact, deliveryMode: .highQuality, version: .current))
    }

    /// The original's pixels at full size as they are stored, not turned: `orientation()` (and the image's
    /// `imageOrientation`) says how to show them, as on Apple's platforms. Without edits.
    public func fullResolutionImage() -> PHImage! {
        let id = asset.id, name = asset.originalFilename
        guard
            let file = try? LibraryClient.shared.call({ library throws(PhotoLibraryError) in
                try await library.requestImageData(for: id, version: .original)
            }), let data = try? LibraryClient.shared.transfers.read(file.path)
        else { return nil }
        return PHImage(storedPixelsOf: data, name: name)
    }

    /// The original's image as ImageIO's thumbnail options ask: at most `kCGImageSourceThumbnailMaxPixelSize` pixels
    /// on its long side when given (a scaled image is upright, as the daemon renders them), else at full size, turned
    /// upright when `kCGImageSourceCreateThumbnailWithTransform` is true and as stored otherwise, as
    /// `fullResolutionImage()`. Without edits. AssetsLibrary's `CGImage` is a `PHImage` here.
    public func cgImage(withOptions options: [AnyHashable: Any]!) -> PHImage! {
        let options = options ?? [:]
        let upright = (options[kCGImageSourceCreateThumbnailWithTransform] as? Bool) == true
        let side: Int? =
            switch options[kCGImageSourceThumbnailMaxPixelSize] {
            case let side as Int: side
            case let side as Double: Int(side)
            case let side as NSNumber: side.intValue
            default: nil
            }
        guard let side, side > 0 else {
            guard upright else { return fullResolutionImage() }
            return ALAsset.image(
                RequestImageParameters(
                    assetId: asset.id, targetSize: nil, resizeMode: .none, deliveryMode: .highQuality,
                    version: .unadjusted))
        }
        return ALAsset.image(
            RequestImageParameters(
                assetId: asset.id, targetSize: ImageSize(width: side, height: side), resizeMode: .exact,
                deliveryMode: .highQuality, version: .unadjusted))
    }

    /// Copies up to `length` bytes of the original file from `offset` into `buffer`; returns how many were copied
    /// (0 and `error` set when the file cannot be read).
    public func getBytes(
        _ buffer: UnsafeMutablePointer<UInt8>, fromOffset offset: Int64, length: Int,
        error: NSErrorPointer
    ) -> Int {
        do {
            return try getBytes(buffer, fromOffset: offset, length: length)
        } catch let failure {
            error?.pointee = AssetsLibraryError.read(failure)
            return 0
        }
    }

    /// As `getBytes(_:fromOffset:length:error:)`, throwing the error.
    public func getBytes(_ buffer: UnsafeMutablePointer<UInt8>, fromOffset offset: Int64, length: Int) throws -> Int {
        let id = asset.id
        let file = try LibraryClient.shared.call { library throws(PhotoLibraryError) in
            try await library.requestImageData(for: id, version: .original)
        }
        // Through the socket when this process may not open the library's files.
        let data = try LibraryClient.shared.transfers.read(
            file.path, offset: Int(max(offset, 0)), length: max(length, 0))
        data.copyBytes(to: buffer, count: data.count)
        return data.count
    }

    /// An EXIF date: `2024:05:01 10:15:00` in the photo's own local time.
    private static func exifDate(_ timestamp: Timestamp) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        formatter.timeZone = TimeZone(secondsFromGMT: timestamp.utcOffsetSeconds)
        return formatter.string(from: Date(timeIntervalSince1970: timestamp.secondsSince1970))
    }
}
