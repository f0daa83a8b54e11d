/// The member keys of one kind of object, read fast when the members come in their usual order.
///
/// A `switch` on a `JSONKey` tries its string patterns one after another, which for an object of thirty
/// members costs more than reading their values. `JSONReader.readObject(keys:_:)` instead checks whether the
/// text goes on with the key after the previous one or the one after that (our writers write members in one order,
/// leaving out some optional ones), and only otherwise reads the key and looks for it among all; either way it
/// hands over a case to switch on.
public struct JSONKeyOrder<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    @usableFromInline let cases: [Key]
    /// Each key as it is written, quotes included: `"id"`.
    @usableFromInline let quotedKeys: [[UInt8]]
    /// Each quoted key's first 24 bytes as loaded from text, for a compare of three words.
    @usableFromInline let packedKeys: [PackedKey]

    /// A quoted key's length and first 24 bytes as three words (zero past its end), with the masks that keep the
    /// key's bytes of three words loaded from the text.
    @usableFromInline struct PackedKey: Sendable {
        @usableFromInline var count: Int
        @usableFromInline var words: (UInt64, UInt64, UInt64)
        @usableFromInline var masks: (UInt64, UInt64, UInt64)

        init(_ quoted: [UInt8]) {
            count = quoted.count
            func load(_ bytes: [UInt8]) -> (UInt64, UInt64, UInt64) {
                bytes.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                                         $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) }
            }
            let kept = min(quoted.count, 24)
            words = load(Array(quoted.prefix(24)) + Array(repeating: 0, count: 24 - kept))
            masks = load(Array(repeating: 0xFF, count: kept) + Array(repeating: 0, count: 24 - kept))
        }
    }

    public init() {
        cases = Array(Key.allCases)
        quotedKeys = cases.map { [UInt8(ascii: "\"")] + Array($0.rawValue.utf8) + [UInt8(ascii: "\"")] }
        packedKeys = quotedKeys.map(PackedKey.init)
    }

    /// Whether `bytes` hold key `index`, quoted, from `offset`.
    @inlinable @inline(__always)
    func quotedKey(_ index: Int, isAt offset: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
        let key = packedKeys[index]
        if key.count <= 24, offset + 24 <= bytes.count {
            return bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & key.masks.0 == key.words.0
                && bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self) & key.masks.1 == key.words.1
                && bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self) & key.masks.2 == key.words.2
        }
        return quotedKeys[index].withUnsafeBytes { key in
            offset + key.count <= bytes.count && key.elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + key.count]))
        }
    }

    /// `next` or the key after it, whichever `bytes` hold, quoted, from `offset`.
    @inlinable @inline(__always)
    func expectedKey(from next: Int, isAt offset: Int, in bytes: UnsafeRawBufferPointer) -> Int? {
        if next < cases.count, quotedKey(next, isAt: offset, in: bytes) { return next }
        if next + 1 < cases.count, quotedKey(next + 1, isAt: offset, in: bytes) { return next + 1 }
        return nil
    }

    /// The index of the case named by the UTF-8 `key`, or nil for a key of none.
    @inlinable
    func find(_ key: UnsafeRawBufferPointer) -> Int? {
        quotedKeys.firstIndex { quoted in quoted.count == key.count + 2 && quoted[1..<quoted.count - 1].elementsEqual(key) }
    }
}

extension JSONReader {
    /// Reads an object whose keys are `keys`' cases, calling `member` with each key's case (nil for an
    /// unknown key); `member` must read or skip the value. Always inlined, so that `member` is too: a call per
    /// member cost more than many of the values.
    @inlinable @inline(__always)
    public mutating func readObject<Key>(
        keys: JSONKeyOrder<Key>, _ member: (Key?, inout JSONReader) throws(JSONReadError) -> Void
    ) throws(JSONReadError) {
        var next = 0
        try readMembers { json throws(JSONReadError) in
            let key: Key?
            // The key after the previous one, or the one after that: a writer leaves out an optional member it lacks.
            if let expected = keys.expectedKey(from: next, isAt: json.index, in: json.bytes) {
                json.index += keys.packedKeys[expected].count
                key = keys.cases[expected]
                next = expected + 1
            } else {
                let read = try json.readStringBytes()
                var escaped = read.escaped ?? ""
                let found = read.bytes.map(keys.find) ?? escaped.withUTF8 { keys.find(UnsafeRawBufferPointer($0)) }
                key = found.map { keys.cases[$0] }
                next = (found ?? -1) + 1
            }
            try json.expect(UInt8(ascii: ":"))
            try member(key, &json)
        }
    }
}
