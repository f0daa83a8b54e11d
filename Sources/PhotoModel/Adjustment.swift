import Foundation

/// How an edit was made: PhotoKit's `PHAdjustmentData`, its data in base64.
public struct Adjustment: Sendable, Hashable, Codable {
    public var formatIdentifier: String
    public var formatVersion: String
    /// The adjustment's bytes in base64, at most 1 MiB once decoded.
    public var data: String

    public init(formatIdentifier: String, formatVersion: String, data: String) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }

    /// The most bytes an adjustment's data may hold.
    public static let maximumDataSize = 1 << 20

    /// The data's bytes; nil when it is not base64.
    public var decodedData: Data? { Data(base64Encoded: data) }

    /// Whether this is an adjustment the daemon renders itself.
    public var isBasic: Bool {
        formatIdentifier == BasicAdjustment.formatIdentifier && formatVersion == BasicAdjustment.formatVersion
    }

    /// Checks the names and the data; with `rendering`, the daemon is to render it, so it must be a basic adjustment.
    public func validate(rendering: Bool) throws(AdjustmentError) {
        guard !formatIdentifier.isEmpty, !formatVersion.isEmpty else {
            throw AdjustmentError("an adjustment needs a formatIdentifier and a formatVersion")
        }
        guard let bytes = decodedData else { throw AdjustmentError("the adjustment's data is not base64") }
        guard bytes.count <= Self.maximumDataSize else {
            throw AdjustmentError("the adjustment's data has \(bytes.count) bytes, more than the 1 MiB allowed")
        }
        if isBasic {
            _ = try BasicAdjustment(data: bytes)
        } else if rendering {
            throw AdjustmentError("""
                the daemon renders only \(BasicAdjustment.formatIdentifier) version \(BasicAdjustment.formatVersion); \
                an edit in format \(formatIdentifier) \(formatVersion) needs its renderedPath
                """)
        }
    }
}

/// Why an adjustment was refused, as a sentence.
public struct AdjustmentError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }

    init(_ reason: String) { self.reason = reason }
}

/// The edit format the daemon renders itself, `io.photolibd.basic` version 1: in this order, a crop of the upright
/// original, a quarter turn clockwise, a mirror image, and an exposure change in stops. Every key is optional.
public struct BasicAdjustment: Sendable, Hashable {
    public static let formatIdentifier = "io.photolibd.basic"
    public static let formatVersion = "1"

    /// Degrees clockwise: 0, 90, 180 or 270.
    public var rotate: Int
    public var flipHorizontal: Bool
    /// In 0...1 coordinates of the upright original.
    public var crop: NormalizedRect?
    /// Stops (EV), from -10 to 10.
    public var exposure: Double

    public init(rotate: Int = 0, flipHorizontal: Bool = false, crop: NormalizedRect? = nil, exposure: Double = 0) {
        self.rotate = rotate
        self.flipHorizontal = flipHorizontal
        self.crop = crop
        self.exposure = exposure
    }

    /// Reads and checks the JSON data of an adjustment: unknown keys and values out of range are refused.
    public init(data: Data) throws(AdjustmentError) {
        do {
            self = try JSONDecoder().decode(BasicAdjustment.self, from: data)
        } catch let error as AdjustmentError {
            throw error
        } catch {
            throw AdjustmentError("\(Self.formatIdentifier) data must be a JSON object with rotate, flipHorizontal, crop and exposure, each optional")
        }
    }

    /// The adjustment's JSON data, with only the keys that change something.
    public var data: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }

    /// The wire form of this adjustment.
    public var adjustment: Adjustment {
        Adjustment(formatIdentifier: Self.formatIdentifier, formatVersion: Self.formatVersion,
                   data: data.base64EncodedString())
    }
}

extension BasicAdjustment: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static let rotate = Key(stringValue: "rotate"), flipHorizontal = Key(stringValue: "flipHorizontal")
        static let crop = Key(stringValue: "crop"), exposure = Key(stringValue: "exposure")
        static let known = [rotate, flipHorizontal, crop, exposure].map(\.stringValue)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !Key.known.contains($0) }) {
            throw AdjustmentError("\(Self.formatIdentifier) has no key '\(unknown)' (it knows \(Key.known.joined(separator: ", ")))")
        }
        self.init()
        if let degrees = try container.decodeIfPresent(Double.self, forKey: .rotate) {
            guard [0, 90, 180, 270].contains(degrees) else { throw AdjustmentError("rotate must be 0, 90, 180 or 270 degrees") }
            rotate = Int(degrees)
        }
        flipHorizontal = try container.decodeIfPresent(Bool.self, forKey: .flipHorizontal) ?? false
        if let rect = try container.decodeIfPresent(NormalizedRect.self, forKey: .crop) {
            guard rect.isInsideUnitSquare else {
                throw AdjustmentError("crop must lie within 0...1 of the image, with a width and height above 0")
            }
            crop = NormalizedRect(x: rect.x, y: rect.y, width: min(rect.width, 1 - rect.x), height: min(rect.height, 1 - rect.y))
        }
        if let stops = try container.decodeIfPresent(Double.self, forKey: .exposure) {
            guard (-10...10).contains(stops) else { throw AdjustmentError("exposure must be a number of stops from -10 to 10") }
            exposure = stops
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        if rotate != 0 { try container.encode(rotate, forKey: .rotate) }
        if flipHorizontal { try container.encode(true, forKey: .flipHorizontal) }
        try container.encodeIfPresent(crop, forKey: .crop)
        if exposure != 0 { try container.encode(exposure, forKey: .exposure) }
    }
}
