import CompactJSON
import PhotoModel

/// How an image fills its target size: PhotoKit's `PHImageContentMode`.
public enum ImageContentMode: String, Sendable, Hashable, Codable, CaseIterable {
    case aspectFit, aspectFill
}

/// How close to the target size an image is: PhotoKit's `PHImageRequestOptionsResizeMode`.
public enum ImageResizeMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Close to the target size and never smaller (the default).
    case fast
    /// Fit: the image fits inside the target; fill: it covers the target.
    case exact
    /// The image's own size.
    case none
}

/// Which images a request delivers: PhotoKit's `PHImageRequestOptionsDeliveryMode`, as the daemon applies it.
public enum ImageDeliveryMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// With `more`: a degraded image first when one is at hand, then the final one; in one reply, the final one.
    case opportunistic
    /// One final image, a RAW file's made from its sensor data rather than its embedded preview.
    case highQuality
    /// One image, degraded if that is what is at hand.
    case fast
}

/// Which version of an edited asset: the edit (`current`), the original's pixels, or the original file.
public enum ImageVersion: String, Sendable, Hashable, Codable, CaseIterable {
    case current, unadjusted, original
}

/// A rectangle in 0...1 coordinates of the upright image.
public struct NormalizedCropRect: Sendable, Hashable, Codable {
    public var x, y, width, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// `Images.RequestImage`.
public struct RequestImageParameters: Sendable, Hashable, Codable {
    public var assetId: String
    /// Both nil (or both -1) ask for the whole image.
    public var targetWidth: Int?
    public var targetHeight: Int?
    public var contentMode: ImageContentMode?
    public var resizeMode: ImageResizeMode?
    public var deliveryMode: ImageDeliveryMode?
    public var normalizedCropRect: NormalizedCropRect?
    public var version: ImageVersion?

    public init(assetId: String, targetWidth: Int? = nil, targetHeight: Int? = nil, contentMode: ImageContentMode? = nil,
                resizeMode: ImageResizeMode? = nil, deliveryMode: ImageDeliveryMode? = nil,
                normalizedCropRect: NormalizedCropRect? = nil, version: ImageVersion? = nil) {
        self.assetId = assetId
        self.targetWidth = targetWidth
        self.targetHeight = targetHeight
        self.contentMode = contentMode
        self.resizeMode = resizeMode
        self.deliveryMode = deliveryMode
        self.normalizedCropRect = normalizedCropRect
        self.version = version
    }

    /// A request for the image of the asset at `targetSize` (nil for the whole image), with PhotoKit's defaults.
    public init(assetId: String, targetSize: ImageSize?, contentMode: ImageContentMode = .aspectFit,
                resizeMode: ImageResizeMode = .fast, deliveryMode: ImageDeliveryMode = .opportunistic,
                normalizedCropRect: NormalizedCropRect? = nil, version: ImageVersion? = nil) {
        self.init(assetId: assetId, targetWidth: targetSize?.width, targetHeight: targetSize?.height,
                  contentMode: contentMode, resizeMode: resizeMode, deliveryMode: deliveryMode,
                  normalizedCropRect: normalizedCropRect, version: version)
    }

    /// The target size; nil for the whole image.
    public var targetSize: ImageSize? {
        guard let targetWidth, let targetHeight, (targetWidth, targetHeight) != (-1, -1) else { return nil }
        return ImageSize(width: targetWidth, height: targetHeight)
    }
}

/// A width and height in pixels.
public struct ImageSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

extension RequestImageParameters: JSONReadable {
    /// Reads what the `Decodable` conformance reads (null is absent): a cached thumbnail's request skips `JSONDecoder`.
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var assetId: String?
        var parameters = RequestImageParameters(assetId: "")
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "assetId": assetId = try json.readString()
            case "targetWidth": parameters.targetWidth = try json.readOptional { json throws(JSONReadError) in try json.readInt() }
            case "targetHeight": parameters.targetHeight = try json.readOptional { json throws(JSONReadError) in try json.readInt() }
            case "contentMode": parameters.contentMode = try json.readOptional { json throws(JSONReadError) in try json.read(ImageContentMode.self) }
            case "resizeMode": parameters.resizeMode = try json.readOptional { json throws(JSONReadError) in try json.read(ImageResizeMode.self) }
            case "deliveryMode": parameters.deliveryMode = try json.readOptional { json throws(JSONReadError) in try json.read(ImageDeliveryMode.self) }
            case "normalizedCropRect": parameters.normalizedCropRect = try json.readOptional(NormalizedCropRect.init(reading:))
            case "version": parameters.version = try json.readOptional { json throws(JSONReadError) in try json.read(ImageVersion.self) }
            default: try json.skipValue()
            }
        }
        guard let assetId else { throw json.error("a request lacks its assetId") }
        parameters.assetId = assetId
        self = parameters
    }
}

extension NormalizedCropRect: JSONReadable {
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var x: Double?, y: Double?, width: Double?, height: Double?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "x": x = try json.readDouble()
            case "y": y = try json.readDouble()
            case "width": width = try json.readDouble()
            case "height": height = try json.readDouble()
            default: try json.skipValue()
            }
        }
        guard let x, let y, let width, let height else { throw json.error("a rectangle lacks a member") }
        self.init(x: x, y: y, width: width, height: height)
    }
}

/// `Images.RequestImageData`.
public struct RequestImageDataParameters: Sendable, Hashable, Codable {
    public var assetId: String
    public var version: ImageVersion?

    public init(assetId: String, version: ImageVersion? = nil) {
        self.assetId = assetId
        self.version = version
    }
}

/// `Images.StartCaching`.
public struct StartCachingParameters: Sendable, Hashable, Codable {
    public var assetIds: [String]
    public var targetWidth: Int
    public var targetHeight: Int
    public var contentMode: ImageContentMode?

    public init(assetIds: [String], targetWidth: Int, targetHeight: Int, contentMode: ImageContentMode? = nil) {
        self.assetIds = assetIds
        self.targetWidth = targetWidth
        self.targetHeight = targetHeight
        self.contentMode = contentMode
    }
}

/// `Images.StopCaching`: nil withdraws every hint.
public struct StopCachingParameters: Sendable, Hashable, Codable {
    public var assetIds: [String]?

    public init(assetIds: [String]? = nil) {
        self.assetIds = assetIds
    }
}

/// One image delivered for a request: a file to read, upright.
public struct ImageResult: Sendable, Hashable, Codable {
    /// The same for every image of one request.
    public var requestId: String
    public var path: String
    public var width: Int
    public var height: Int
    public var mimeType: String
    /// Whether this is a stand-in delivered before the final image.
    public var isDegraded: Bool

    public init(requestId: String, path: String, width: Int, height: Int, mimeType: String, isDegraded: Bool) {
        self.requestId = requestId
        self.path = path
        self.width = width
        self.height = height
        self.mimeType = mimeType
        self.isDegraded = isDegraded
    }
}

extension ImageResult: JSONWritable, JSONReadable {
    /// Writes what the `Encodable` conformance writes, without `JSONEncoder`: one reply per image request.
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("requestId"); json.string(requestId)
        json.key("path"); json.string(path)
        json.key("width"); json.int(width)
        json.key("height"); json.int(height)
        json.key("mimeType"); json.string(mimeType)
        json.key("isDegraded"); json.bool(isDegraded)
        json.endObject()
    }

    /// Reads what the `Decodable` conformance reads.
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var requestId: String?, path: String?, width: Int?, height: Int?, mimeType: String?, isDegraded: Bool?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "requestId": requestId = try json.readString()
            case "path": path = try json.readString()
            case "width": width = try json.readInt()
            case "height": height = try json.readInt()
            case "mimeType": mimeType = try json.readString()
            case "isDegraded": isDegraded = try json.readBool()
            default: try json.skipValue()
            }
        }
        guard let requestId, let path, let width, let height, let mimeType, let isDegraded else {
            throw json.error("an image result lacks a member")
        }
        self.init(requestId: requestId, path: path, width: width, height: height, mimeType: mimeType, isDegraded: isDegraded)
    }
}

/// An asset's file of the version asked for: the original, or the rendered file of its edit.
public struct ImageData: Sendable, Hashable, Codable {
    public var path: String
    public var mimeType: String
    /// The EXIF orientation of the file, 1...8.
    public var orientation: Int
    public var fileSize: Int
    public var originalFilename: String

    public init(path: String, mimeType: String, orientation: Int, fileSize: Int, originalFilename: String) {
        self.path = path
        self.mimeType = mimeType
        self.orientation = orientation
        self.fileSize = fileSize
        self.originalFilename = originalFilename
    }
}

/// An adjustment format a program can resume edits in.
public struct AdjustmentFormat: Sendable, Hashable, Codable {
    public var formatIdentifier: String
    public var formatVersion: String

    public init(formatIdentifier: String, formatVersion: String) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
    }
}

/// `Images.RequestContentEditingInput`.
public struct RequestContentEditingInputParameters: Sendable, Hashable, Codable {
    public var assetId: String
    /// The formats the caller can resume an edit in.
    public var canHandle: [AdjustmentFormat]?

    public init(assetId: String, canHandle: [AdjustmentFormat]? = nil) {
        self.assetId = assetId
        self.canHandle = canHandle
    }
}

/// What an edit starts from: PhotoKit's `PHContentEditingInput`.
public struct ContentEditingInput: Sendable, Hashable, Codable {
    /// The image to edit: the original when the edit is resumed, else the current version.
    public var fullSizeImagePath: String
    /// The MIME type of that file.
    public var mimeType: String
    public var mediaType: MediaType
    /// The EXIF orientation of that file.
    public var orientation: Int
    /// The edit to resume; nil when `fullSizeImagePath` is the current version.
    public var adjustment: Adjustment?
    /// `original` when the edit is resumed from the original, else `current`.
    public var baseVersion: ImageVersion
    /// The asset's edit, whether or not it is resumed: what a program's `canHandleAdjustmentData` looks at.
    public var currentAdjustment: Adjustment?

    public init(fullSizeImagePath: String, mimeType: String, mediaType: MediaType, orientation: Int,
                adjustment: Adjustment?, baseVersion: ImageVersion, currentAdjustment: Adjustment?) {
        self.fullSizeImagePath = fullSizeImagePath
        self.mimeType = mimeType
        self.mediaType = mediaType
        self.orientation = orientation
        self.adjustment = adjustment
        self.baseVersion = baseVersion
        self.currentAdjustment = currentAdjustment
    }
}
