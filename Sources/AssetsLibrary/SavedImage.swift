import Foundation
import Imaging
import PhotoLibrary
import Photos

/// Images AssetsLibrary saves: their metadata (ImageIO's property groups) written into JPEG files, and their bytes
/// sent to the daemon.
enum SavedImage {
    /// `data` with `metadata` written in when it is a JPEG (the `{TIFF}`, `{Exif}` and `{GPS}` properties that
    /// EXIF holds, and `Orientation`); other formats as they are.
    static func writing(_ metadata: [AnyHashable: Any]?, into data: Data) -> Data {
        guard let metadata, !metadata.isEmpty else { return data }
        let tiff = metadata["{TIFF}"] as? [AnyHashable: Any] ?? [:]
        let exif = metadata["{Exif}"] as? [AnyHashable: Any] ?? [:]
        let gps = metadata["{GPS}"] as? [AnyHashable: Any] ?? [:]
        func text(_ group: [AnyHashable: Any], _ key: String) -> String? { group[key].map { "\($0)" } }
        func number(_ group: [AnyHashable: Any], _ key: String) -> Double? {
            switch group[key] {
            case let number as NSNumber: number.doubleValue
            case let double as Double: double
            case let integer as Int: Double(integer)
            case let string as String: Double(string)
            default: nil
            }
        }
        func signed(_ value: Double?, _ reference: String?, negativeWhen negative: String) -> Double? {
            value.map { reference?.uppercased() == negative ? -abs($0) : $0 }
        }
        let properties = JPEGExifWriter.Properties(
            make: text(tiff, "Make"), model: text(tiff, "Model"), software: text(tiff, "Software"),
            orientation: (number(metadata, "Orientation") ?? number(tiff, "Orientation")).map(Int.init),
            dateTimeOriginal: text(exif, "DateTimeOriginal"), offsetTimeOriginal: text(exif, "OffsetTimeOriginal"),
            latitude: signed(number(gps, "Latitude"), text(gps, "LatitudeRef"), negativeWhen: "S"),
            longitude: signed(number(gps, "Longitude"), text(gps, "LongitudeRef"), negativeWhen: "W"),
            altitude: number(gps, "Altitude").map { number(gps, "AltitudeRef") == 1 ? -abs($0) : $0 })
        return JPEGExifWriter.writing(properties, into: [UInt8](data)).map { Data($0) } ?? data
    }

    /// Adds `data` to the library as a new asset, sent through the socket; returns the asset's URL.
    static func save(_ data: Data) throws -> URL {
        let filename = "IMG.\(ImageFormat.fileExtension(of: data))"
        let upload = try LibraryClient.shared.transfers.upload(data, filename: filename)
        return try create(NewAssetFile(upload: upload), filename: filename)
    }

    /// Adds the file at `url` to the library: by path when the daemon reads this user's files, else sent.
    static func save(fileAt url: URL) throws -> URL {
        var file = NewAssetFile(path: url.standardizedFileURL.path)
        if !LibraryClient.shared.transfers.daemonReads(url.standardizedFileURL.path) {
            file = NewAssetFile(upload: try LibraryClient.shared.transfers.upload(contentsOf: url.path))
        }
        return try create(file, filename: url.lastPathComponent)
    }

    private static func create(_ file: NewAssetFile, filename: String) throws -> URL {
        let request = ChangeRequest(op: "createAsset", path: file.path, placeholder: "@asset", upload: file.upload)
        let result = try LibraryClient.shared.call(idempotent: false) { library throws(PhotoLibraryError) in
            try await library.performChanges([request])
        }
        guard let identifier = result.created["@asset"] else {
            throw PhotoLibraryError(code: .unexpectedReply, message: "photolibd created no asset for \(filename)")
        }
        return AssetURL.asset(identifier, filename: filename)
    }
}
