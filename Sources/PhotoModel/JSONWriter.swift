/// Writes compact JSON straight into bytes, for replies too large to go through `JSONEncoder` cheaply.
///
/// The output decodes to the same values as the types' `Codable` conformances produce.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init(capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an object member's key; the value follows.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    public mutating func int<Integer: BinaryInteger>(_ value: Integer) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// Writes a finite number; JSON has no NaN or infinity, so those become null.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        separate()
        bytes.append(contentsOf: value.description.utf8)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// Writes `value` with `write`, or null when it is nil.
    public mutating func optional<Value>(_ value: Value?, _ write: (inout JSONWriter, Value) -> Void) {
        if let value { write(&self, value) } else { null() }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension Asset {
    /// Writes the asset as its `Codable` conformance does, but without `JSONEncoder`'s overhead.
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.string(id)
        json.key("mediaType"); json.string(mediaType.rawValue)
        json.key("mediaSubtypes"); json.beginArray()
        for name in mediaSubtypes.wireNames { json.string(name) }
        json.endArray()
        json.key("pixelWidth"); json.int(pixelWidth)
        json.key("pixelHeight"); json.int(pixelHeight)
        json.key("creationDate"); json.optional(creationDate) { $0.string($1.rfc3339) }
        json.key("creationDateSource"); json.optional(creationDateSource) { $0.string($1.rawValue) }
        json.key("modificationDate"); json.optional(modificationDate) { $0.string($1.rfc3339) }
        json.key("addedDate"); json.string(addedDate.rfc3339)
        json.key("location"); json.optional(location) { json, location in
            json.beginObject()
            json.key("latitude"); json.double(location.latitude)
            json.key("longitude"); json.double(location.longitude)
            if let altitude = location.altitude { json.key("altitude"); json.double(altitude) }
            json.endObject()
        }
        json.key("duration"); json.double(duration)
        json.key("isFavorite"); json.bool(isFavorite)
        json.key("isHidden"); json.bool(isHidden)
        json.key("isTrashed"); json.bool(isTrashed)
        json.key("burstIdentifier"); json.optional(burstIdentifier) { $0.string($1) }
        json.key("originalFilename"); json.string(originalFilename)
        json.key("fileSize"); json.int(fileSize)
        json.key("orientation"); json.int(orientation)
        if let resources {
            json.key("resources"); json.beginArray()
            for resource in resources {
                json.beginObject()
                json.key("type"); json.string(resource.type.rawValue)
                json.key("originalFilename"); json.string(resource.originalFilename)
                json.key("mimeType"); json.string(resource.mimeType)
                json.key("fileSize"); json.int(resource.fileSize)
                if let path = resource.path { json.key("path"); json.string(path) }
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
    }
}
