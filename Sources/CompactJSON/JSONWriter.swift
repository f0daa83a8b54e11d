/// Writes compact JSON straight into bytes, for replies too large to go through `JSONEncoder` cheaply.
///
/// The output decodes to the same values as the types' `Codable` conformances produce.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    fileprivate var needsComma = false

    public init(capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    /// Forgets what is written so far, keeping its room, and goes on after it: for a text sent in parts as it is
    /// written, each part copied out of `bytes` first.
    public mutating func discardWritten() {
        bytes.removeAll(keepingCapacity: true)
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

    /// Writes an object member's key, a literal that needs no escapes; the value follows.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    @inlinable
    public mutating func int<Integer: BinaryInteger>(_ value: Integer) {
        if let value = Int64(exactly: value) { int64(value) } else { number(digits: String(value)) }
    }

    @usableFromInline
    mutating func int64(_ value: Int64) {
        separate()
        appendDecimal(value)
        needsComma = true
    }

    /// Writes an integer too large for `Int64` from its decimal digits.
    @usableFromInline
    mutating func number(digits: String) {
        separate()
        bytes.append(contentsOf: digits.utf8)
        needsComma = true
    }

    /// Writes a string whose UTF-8 `append` adds to the output: text that needs no escapes, such as a date.
    public mutating func unescapedString(_ append: (inout [UInt8]) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(&bytes)
        bytes.append(UInt8(ascii: "\""))
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

    /// Writes `value` with `write`, or null when it is nil. Inlinable, as `array` is: unspecialized, a call costs
    /// more than the value it writes.
    @inlinable
    public mutating func optional<Value>(_ value: Value?, _ write: (inout JSONWriter, Value) -> Void) {
        if let value { write(&self, value) } else { null() }
    }

    fileprivate mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Appends `text` quoted, copying the runs that need no escape in one go.
    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                appendEscape(of: byte)
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends an integer's digits without making a `String`.
    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var power: UInt64 = 1
        while power <= magnitude / 10 { power *= 10 }
        while power > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / power % 10))
            power /= 10
        }
    }

    private mutating func appendEscape(of byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
        case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}

/// A value that writes itself with a `JSONWriter`, to the JSON its `Encodable` conformance produces.
public protocol JSONWritable {
    func write(to json: inout JSONWriter)
    /// About how many bytes `write` writes, so that a large text is given its room once instead of growing into it.
    var estimatedByteCount: Int { get }
}

extension JSONWritable {
    public var estimatedByteCount: Int { 1 << 12 }
}

extension JSONWriter {
    /// Writes JSON that is already encoded, as one value.
    public mutating func encoded(_ json: some Collection<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    /// Writes JSON that is already encoded, as one value, in one copy: for values written by the million.
    public mutating func encoded(_ json: UnsafeRawBufferPointer) {
        separate()
        bytes.append(contentsOf: json.assumingMemoryBound(to: UInt8.self))
        needsComma = true
    }

    /// Writes each element with `write`, as an array.
    @inlinable
    public mutating func array<Element>(_ elements: some Sequence<Element>, _ write: (inout JSONWriter, Element) -> Void) {
        beginArray()
        for element in elements { write(&self, element) }
        endArray()
    }
}
