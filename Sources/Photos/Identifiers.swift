import PhotoLibrary

/// The ordered identifiers of a fetch result, kept compactly: an identifier in photolibd's form (a lowercase
/// UUID) takes 16 bytes instead of a 36-character string, so a million-asset result costs 16 MB. A result with
/// any other identifier keeps strings.
struct Identifiers: RandomAccessCollection, Sendable, Equatable {
    private enum Storage: Sendable, Equatable {
        case uuids([PackedUUID])
        case strings([String])
    }

    private let storage: Storage

    init(_ identifiers: [String]) {
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

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .uuids(let uuids): uuids.count
        case .strings(let strings): strings.count
        }
    }

    subscript(position: Int) -> String {
        switch storage {
        case .uuids(let uuids): uuids[position].description
        case .strings(let strings): strings[position]
        }
    }

    /// The first position of `identifier`, comparing packed values when the list is packed.
    func firstIndex(of identifier: String) -> Int? {
        switch storage {
        case .uuids(let uuids): PackedUUID(identifier).flatMap { uuids.firstIndex(of: $0) }
        case .strings(let strings): strings.firstIndex(of: identifier)
        }
    }

    /// The list after `change`, computed on the packed values when the change's identifiers pack too.
    func applying(_ change: FetchResultChange) -> Identifiers {
        if let ids = change.ids { return Identifiers(ids) }
        switch storage {
        case .uuids(let uuids) where (change.insertedIds ?? []).allSatisfy({ PackedUUID($0) != nil }):
            return Identifiers(storage: .uuids(change.applied(to: uuids) { PackedUUID($0)! }))
        default:
            return Identifiers(change.applied(to: Array(self)))
        }
    }
}

/// A lowercase UUID in 16 bytes.
struct PackedUUID: Hashable, Sendable, CustomStringConvertible {
    private let high: UInt64
    private let low: UInt64

    /// Packs `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hexadecimal; nil for anything else, so that
    /// `description` gives back exactly the string packed.
    init?(_ text: String) {
        var utf8 = text.utf8.makeIterator()
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0, position = 0
        while let byte = utf8.next() {
            defer { position += 1 }
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
        guard position == 36, digits == 32 else { return nil }
        self.high = high
        self.low = low
    }

    var description: String {
        let hex = Array("0123456789abcdef".utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(36)
        for digit in 0..<32 {
            if digit == 8 || digit == 12 || digit == 16 || digit == 20 { bytes.append(UInt8(ascii: "-")) }
            let word = digit < 16 ? high : low
            bytes.append(hex[Int(word >> UInt64(60 - 4 * (digit % 16)) & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
