/// The member keys of one kind of object, read fast when the members come in their usual order.
///
/// A `switch` on a `JSONKey` tries its string patterns one after another, which for an object of thirty
/// members costs more than reading their values. `JSONReader.readObject(keys:_:)` instead checks whether the
/// text goes on with the key after the previous one (our writers write members in one order), and only
/// otherwise reads the key and looks for it among all; either way it hands over a case to switch on.
public struct JSONKeyOrder<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    @usableFromInline let cases: [Key]
    /// Each key as it is written, quotes included: `"id"`.
    @usableFromInline let quotedKeys: [[UInt8]]

    public init() {
        cases = Array(Key.allCases)
        quotedKeys = cases.map { [UInt8(ascii: "\"")] + Array($0.rawValue.utf8) + [UInt8(ascii: "\"")] }
    }

    /// Whether `bytes` hold key `index`, quoted, from `offset`.
    @inlinable @inline(__always)
    func quotedKey(_ index: Int, isAt offset: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
        quotedKeys[index].withUnsafeBytes { key in
            guard offset + key.count <= bytes.count else { return false }
            var compared = 0
            while compared + 8 <= key.count {
                guard key.loadUnaligned(fromByteOffset: compared, as: UInt64.self)
                    == bytes.loadUnaligned(fromByteOffset: offset + compared, as: UInt64.self) else { return false }
                compared += 8
            }
            while compared < key.count {
                guard key[compared] == bytes[offset + compared] else { return false }
                compared += 1
            }
            return true
        }
    }

    /// The index of the case named by the UTF-8 `key`, or nil for a key of none.
    @inlinable
    func find(_ key: UnsafeRawBufferPointer) -> Int? {
        quotedKeys.firstIndex { quoted in quoted.count == key.count + 2 && quoted[1..<quoted.count - 1].elementsEqual(key) }
    }
}

extension JSONReader {
    /// Reads an object whose keys are `keys`' cases, calling `member` with each key's case (nil for an
    /// unknown key); `member` must read or skip the value.
    @inlinable
    public mutating func readObject<Key>(
        keys: JSONKeyOrder<Key>, _ member: (Key?, inout JSONReader) throws(JSONReadError) -> Void
    ) throws(JSONReadError) {
        var next = 0
        try readMembers { json throws(JSONReadError) in
            let key: Key?
            if next < keys.cases.count, keys.quotedKey(next, isAt: json.index, in: json.bytes) {
                json.index += keys.quotedKeys[next].count
                key = keys.cases[next]
                next += 1
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
