import CompactJSON

/// The ordered identifiers of a fetch result, kept compactly: an identifier in photolibd's form (a lowercase
/// UUID) takes 16 bytes instead of a 36-character string, so a million-asset result costs 16 MB. A result with
/// any other identifier keeps strings.
public struct ResultIdentifiers: RandomAccessCollection, Sendable, Equatable {
    private enum Storage: Sendable, Equatable {
        case uuids([PackedUUID])
        case strings([String])
    }

    private let storage: Storage

    public init(_ identifiers: [String]) {
        var packed: [PackedUUID] = []
        packed.reserveCapacity(identifiers.count)
        for identifier in identifiers {
            guard let uuid = PackedUUID(identifier) else {
                storage = .strings(identifiers)
                return
            }
            packed.append(uuid)
        }
        storage = .uuids(packed)
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .uuids(let uuids): uuids.count
        case .strings(let strings): strings.count
        }
    }

    public subscript(position: Int) -> String {
        switch storage {
        case .uuids(let uuids): uuids[position].description
        case .strings(let strings): strings[position]
        }
    }

    /// The first position of `identifier`, comparing packed values when the list is packed.
    public func firstIndex(of identifier: String) -> Int? {
        switch storage {
        case .uuids(let uuids): PackedUUID(identifier).flatMap { uuids.firstIndex(of: $0) }
        case .strings(let strings): strings.firstIndex(of: identifier)
        }
    }

    /// The list after `change`, computed on the packed values when the change's identifiers pack too.
    public func applying(_ change: FetchResultChange) -> ResultIdentifiers {
        if let ids = change.ids { return ResultIdentifiers(ids) }
        switch storage {
        case .uuids(let uuids) where (change.insertedIds ?? []).allSatisfy({ PackedUUID($0) != nil }):
            return ResultIdentifiers(storage: .uuids(change.applied(to: uuids) { PackedUUID($0)! }))
        default:
            return ResultIdentifiers(change.applied(to: Array(self)))
        }
    }
}

extension ResultIdentifiers: JSONReadable {
    /// Reads a JSON array of identifiers, packing each straight from the text's bytes: no string is made for an
    /// identifier that packs (a million-id snapshot would otherwise allocate and free a million strings).
    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var packed: [PackedUUID] = []
        var strings: [String]?
        try json.readArray { json throws(JSONReadError) in
            let identifier = try json.readString { bytes -> Identifier? in
                PackedUUID(utf8: bytes).map(Identifier.packed) ?? .text(String(decoding: bytes, as: UTF8.self))
            }
            switch identifier {
            case .packed(let uuid)? where strings == nil: packed.append(uuid)
            case .packed(let uuid)?: strings!.append(uuid.description)
            case .text(let text)?:
                if strings == nil { strings = packed.map(\.description) }
                strings!.append(text)
            case nil: throw json.error("an identifier that is not text")
            }
        }
        storage = strings.map(Storage.strings) ?? .uuids(packed)
    }

    private enum Identifier {
        case packed(PackedUUID)
        case text(String)
    }
}

/// A lowercase UUID in 16 bytes.
public struct PackedUUID: Hashable, Sendable, CustomStringConvertible {
    private let high: UInt64
    private let low: UInt64

    /// Packs `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hexadecimal; nil for anything else, so that
    /// `description` gives back exactly the string packed.
    public init?(_ text: String) {
        var text = text
        guard let packed = text.withUTF8({ PackedUUID(utf8: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = packed
    }

    /// Packs the UTF-8 bytes of a UUID in photolibd's form; nil for any other text.
    public init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0
        for position in 0..<36 {
            let byte = bytes[position]
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
            digits += 1
        }
        self.high = high
        self.low = low
    }

    public var description: String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            let hex: StaticString = "0123456789abcdef"
            var position = 0
            for digit in 0..<32 {
                if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = digit < 16 ? high : low
                buffer[position] = hex.utf8Start[Int(word >> UInt64(60 - 4 * (digit % 16)) & 0xF)]
                position += 1
            }
            return 36
        }
    }
}
