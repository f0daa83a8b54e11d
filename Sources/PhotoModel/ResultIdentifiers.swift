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

    /// The ids of a `packedIds` text (``PackedIDs``); nil when the text is not one.
    public init?(packedIDs text: UnsafeRawBufferPointer) {
        var packed: [PackedUUID] = []
        packed.reserveCapacity(text.count / 4 * 3 / 16)
        guard PackedIDs.decode(text, { packed.append(PackedUUID(high: $0, low: $1)) }) else { return nil }
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
        try self.init(reading: &json, expectedCount: 0)
    }

    /// As `init(reading:)`, with room made for `expectedCount` identifiers first (a result's `count`).
    public init(reading json: inout JSONReader, expectedCount: Int) throws(JSONReadError) {
        var packed: [PackedUUID] = []
        packed.reserveCapacity(Swift.max(0, Swift.min(expectedCount, 1 << 24)))
        var strings: [String]?
        try json.readArray { json throws(JSONReadError) in
            var text: String?
            let uuid = try json.readString { bytes -> PackedUUID? in
                if let uuid = PackedUUID(utf8: bytes) { return uuid }
                text = String(decoding: bytes, as: UTF8.self)
                return nil
            }
            if let uuid, strings == nil {
                packed.append(uuid)
            } else {
                if strings == nil { strings = packed.map(\.description) }
                strings!.append(uuid?.description ?? text!)
            }
        }
        storage = strings.map(Storage.strings) ?? .uuids(packed)
    }
}

/// A lowercase UUID in 16 bytes.
public struct PackedUUID: Hashable, Sendable, CustomStringConvertible {
    private let high: UInt64
    private let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Packs `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hexadecimal; nil for anything else, so that
    /// `description` gives back exactly the string packed.
    public init?(_ text: String) {
        var text = text
        guard let packed = text.withUTF8({ PackedUUID(utf8: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = packed
    }

    /// Packs the UTF-8 bytes of a UUID in photolibd's form; nil for any other text. Eight digits at a time, as
    /// one 64-bit word: a million-id snapshot is read at the speed of its bytes.
    public init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 36, let base = bytes.baseAddress else { return nil }
        let dash = UInt8(ascii: "-")
        guard bytes[8] == dash, bytes[13] == dash, bytes[18] == dash, bytes[23] == dash,
              let first = Self.hexWord(base.loadUnaligned(as: UInt64.self)),
              let second = Self.hexWord(UInt64(base.loadUnaligned(fromByteOffset: 9, as: UInt32.self))
                                          | UInt64(base.loadUnaligned(fromByteOffset: 14, as: UInt32.self)) << 32),
              let third = Self.hexWord(UInt64(base.loadUnaligned(fromByteOffset: 19, as: UInt32.self))
                                         | UInt64(base.loadUnaligned(fromByteOffset: 24, as: UInt32.self)) << 32),
              let fourth = Self.hexWord(base.loadUnaligned(fromByteOffset: 28, as: UInt64.self))
        else { return nil }
        high = first << 32 | second
        low = third << 32 | fourth
    }

    /// The value of eight lowercase hexadecimal digits, the first in the word's lowest byte (as loaded from text on
    /// a little-endian machine); nil when any byte is not one.
    @inline(__always)
    private static func hexWord(_ word: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
        guard word & highBits == 0 else { return nil }
        // Below 0x80 each byte can take up to 0x80 more without carrying into the next: the high bit then says
        // whether the byte was at least the bound.
        func atLeast(_ bound: UInt64) -> UInt64 { (word &+ (0x80 &- bound) &* ones) & highBits }
        let digits = atLeast(0x30) & ~atLeast(0x3A)
        let letters = atLeast(0x61) & ~atLeast(0x67)
        guard digits | letters == highBits else { return nil }
        // A digit's value is its low nibble; a letter's ('a' is 0x61) its low nibble plus 9.
        let nibbles = (word & (0x0F &* ones)) &+ (letters >> 7) &* 9
        // The first digit is the most significant: bytes pair up into 16 bits, then 32.
        let pairs = ((nibbles << 4) | (nibbles >> 8)) & 0x00FF_00FF_00FF_00FF
        let quads = ((pairs << 8) | (pairs >> 16)) & 0x0000_FFFF_0000_FFFF
        return ((quads << 16) | (quads >> 32)) & 0xFFFF_FFFF
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
