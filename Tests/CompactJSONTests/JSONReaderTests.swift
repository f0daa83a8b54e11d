import CompactJSON
import Foundation
import Testing

struct JSONReaderTests {
    private func read<Value>(_ text: String, _ body: (inout JSONReader) throws(JSONReadError) -> Value) throws -> Value
    {
        try Data(text.utf8).withUnsafeBytes { bytes in try JSONReader.read(bytes, with: body) }
    }

    private func readString(_ text: String) throws -> String {
        try read(text) { json throws(JSONReadError) in try json.readString() }
    }

    @Test func readsStringsAsJSONDecoderDoes() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ09 \"\\/\n\r\t\u{8}\u{C}\u{1}\u{1F}é漢🙂\u{7F}\u{2028}")
        for _ in 0..<300 {
            let text = String(
                (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let encoded = String(decoding: try JSONEncoder().encode([text]), as: UTF8.self)
            let read = try read(encoded) { json throws(JSONReadError) in
                try json.readArray { json throws(JSONReadError) in try json.readString() }
            }
            #expect(read == [text], "\(encoded)")
        }
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try readString(#""a\u00e9\ud83d\ude42\/\b""#) == "aé🙂/\u{8}")
        #expect(try readString(#""\ud83d x""#) == "\u{FFFD} x")
        #expect(throws: JSONReadError.self) { try readString(#""\ud83d\u0041""#) }
        #expect(throws: JSONReadError.self) { try readString(#""\x""#) }
        #expect(throws: JSONReadError.self) { try readString(#""\u12""#) }
        #expect(throws: JSONReadError.self) { try readString("\"tab\there\"") }
        #expect(throws: JSONReadError.self) { try readString(#""open"#) }
    }

    @Test func readsNumbers() throws {
        let ints = try read("[0, -7, 9223372036854775807, -9223372036854775808, 1e3, 2.0]") {
            json throws(JSONReadError) in
            try json.readArray { json throws(JSONReadError) in try json.readInt() }
        }
        #expect(ints == [0, -7, .max, .min, 1000, 2])
        let doubles = try read("[0.5, -1.25e-3, 3, 1E2]") { json throws(JSONReadError) in
            try json.readArray { json throws(JSONReadError) in try json.readDouble() }
        }
        #expect(doubles == [0.5, -0.00125, 3, 100])
        for bad in ["9223372036854775808", "1.5", "-", "", "x", "1e999"] {
            #expect(throws: JSONReadError.self, "\(bad)") {
                try read(bad) { json throws(JSONReadError) in try json.readInt() }
            }
        }
    }

    @Test func readsDecimalsToTheSameDoubleAsTheStandardLibrary() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0", "-0", "0.0", "48.85", "-33.8568", "151.2153", "123456789012345", "0.000000000000001",
            "9.999999999999999",
            "1234567890123456", "1.2.3", "--1",
        ]
        for _ in 0..<2_000 {
            let value = Double.random(in: -1_000_000...1_000_000, using: &generator)
            texts.append(String(format: "%.\(Int.random(in: 0...9, using: &generator))f", value))
            texts.append(value.description)
        }
        for text in texts {
            let read = try? read(text) { json throws(JSONReadError) in try json.readDouble() }
            #expect(read?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test func readsObjectsSkippingUnknownMembers() throws {
        let text = #" { "\u0061" : 1 , "skip": {"x": [true, false, null, "s", -1.5e2, {}]}, "b": null, "c": "z" } "#
        var seen: [String: String] = [:]
        try read(text) { json throws(JSONReadError) in
            try json.readObject { key, json throws(JSONReadError) in
                switch key {
                case "a": seen[key.description] = String(try json.readInt())
                case "b":
                    seen[key.description] =
                        try json.readOptional { json throws(JSONReadError) in try json.readString() } ?? "nil"
                case "c": seen[key.description] = try json.readString()
                default: try json.skipValue()
                }
            }
        }
        #expect(seen == ["a": "1", "b": "nil", "c": "z"])
    }

    enum Member: String, CaseIterable, Sendable {
        case id, idLong, name, size, aKeyOfMoreThanTwentyFourBytes
    }

    /// Members in the usual order, shuffled, unknown, escaped, and keys that start with another key; far from the
    /// end of the text (keys compared a word at a time) and near it.
    @Test(arguments: [
        #"{"id":"1","idLong":"2","name":"n","size":4}"#,
        #"{"id":"1","idLong":"2","name":"n","size":4,"aKeyOfMoreThanTwentyFourBytes":0,"padding":"........................"}"#,
        #"{"idLong":"2","id":"1","size":4,"aKeyOfMoreThanTwentyFourBytesNot":0,"name":"n","padding":"........................"}"#,
        #"{ "size" : 4 , "name":"n", "idLong":"2", "id":"1" }"#,
        #"{"idLonger":0,"id":"1","other":[{"id":9}],"idLong":"2","\u006eame":"n","size":4,"siz":5}"#,
    ])
    func readsMembersByKeyOrderWhateverTheirOrder(text: String) throws {
        let keys = JSONKeyOrder<Member>()
        var seen: [Member: String] = [:]
        try read(text) { json throws(JSONReadError) in
            try json.readObject(keys: keys) { member, json throws(JSONReadError) in
                switch member {
                case .id?, .idLong?, .name?: seen[member!] = try json.readString()
                case .size?: seen[.size] = String(try json.readInt())
                case .aKeyOfMoreThanTwentyFourBytes?, nil: try json.skipValue()
                }
            }
        }
        #expect(seen == [.id: "1", .idLong: "2", .name: "n", .size: "4"])
    }

    /// Members in the usual order with optional ones left out, one or two in a row.
    @Test(arguments: [
        (#"{"id":"1","name":"n","aKeyOfMoreThanTwentyFourBytes":0}"#, [Member.id: "1", .name: "n"]),
        (#"{"idLong":"2","size":4}"#, [.idLong: "2", .size: "4"]),
        (#"{"id":"1","size":4}"#, [.id: "1", .size: "4"]),
    ])
    func readsMembersByKeyOrderWithOptionalOnesLeftOut(text: String, expected: [Member: String]) throws {
        var seen: [Member: String] = [:]
        try read(text) { json throws(JSONReadError) in
            try json.readObject(keys: JSONKeyOrder<Member>()) { member, json throws(JSONReadError) in
                switch member {
                case .id?, .idLong?, .name?: seen[member!] = try json.readString()
                case .size?: seen[.size] = String(try json.readInt())
                case .aKeyOfMoreThanTwentyFourBytes?, nil: try json.skipValue()
                }
            }
        }
        #expect(seen == expected)
    }

    @Test func readsALeadingValueAndSaysHowManyBytesItTook() throws {
        let text = Data(#"  {"a":[1,2]} , "rest" "#.utf8)
        let (value, byteCount) = try text.withUnsafeBytes { bytes in
            try JSONReader.readLeadingValue(bytes) { json throws(JSONReadError) in
                var numbers: [Int] = []
                try json.readObject { _, json throws(JSONReadError) in
                    numbers = try json.readArray { json throws(JSONReadError) in try json.readInt() }
                }
                return numbers
            }
        }
        #expect(value == [1, 2])
        #expect(byteCount == 13)
        #expect(throws: JSONReadError.self) {
            try Data(#"{"a":[1,"#.utf8).withUnsafeBytes { bytes in
                try JSONReader.readLeadingValue(bytes) { json throws(JSONReadError) in try json.skipValue() }
            }
        }
    }

    @Test(arguments: [(#" , "b" : 2 ,"c":[3]} "#, ["b", "c"]), ("}", []), (#","\u0062":2}"#, ["b"])])
    func readsTheMembersThatRemainOfAnObject(text: String, keys: [String]) throws {
        var seen: [String] = []
        try read(text) { json throws(JSONReadError) in
            try json.readRemainingMembers { key, json throws(JSONReadError) in
                seen.append(key.description)
                try json.skipValue()
            }
        }
        #expect(seen == keys)
    }

    @Test(arguments: [#","b":2"#, #""b":2}"#, #",}"#, #",b:2}"#, #"} x"#])
    func refusesMalformedRemainingMembers(text: String) {
        #expect(throws: JSONReadError.self) {
            try read(text) { json throws(JSONReadError) in
                try json.readRemainingMembers { _, json throws(JSONReadError) in try json.skipValue() }
            }
        }
    }

    @Test(arguments: [#"{"id":"1""#, #"{"id""1"}"#, #"{"id":"1",}"#, #"{"id:"1"}"#])
    func refusesMalformedObjectsReadByKeyOrder(text: String) {
        #expect(throws: JSONReadError.self) {
            try read(text) { json throws(JSONReadError) in
                try json.readObject(keys: JSONKeyOrder<Member>()) { _, json throws(JSONReadError) in
                    try json.skipValue()
                }
            }
        }
    }

    @Test(arguments: [
        #"{"a":1"#, #"{"a" 1}"#, #"{"a":1,}"#, "[1,]", "[1 2]", "tru", "nul", #"{"a":1} x"#, "{1:2}", "[01x]",
        "[fals]", "[falsy]", "[nulL]", "[truee]", #"["a\qb"]"#, #"["\u12G4"]"#, #"["abc"#, "[\"a\u{01}b\"]",
    ])
    func refusesMalformedText(_ text: String) {
        #expect(throws: JSONReadError.self) { try read(text) { json throws(JSONReadError) in try json.skipValue() } }
    }

    @Test func attemptKeepsTheBytesOfAValueItCouldNotRead() throws {
        let (failed, text) = try read(#"{"code": 42}"#) { json throws(JSONReadError) in
            let (outcome, bytes) = try json.attempt { json throws(JSONReadError) in try json.readString() }
            return ((try? outcome.get()) == nil, String(decoding: bytes, as: UTF8.self))
        }
        #expect(failed)
        #expect(text == #"{"code": 42}"#)
    }

    @Test func nestingPastTheLimitIsRefusedWithoutExhaustingTheStack() throws {
        let deep = String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        let refusal = #expect(throws: JSONReadError.self) {
            try read(deep) { json throws(JSONReadError) in try json.skipValue() }
        }
        #expect(refusal?.isTooDeep == true)
        #expect(refusal?.offset == JSONReader.maximumDepth * 5)
        let arrays = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONReadError.self) { try read(arrays) { json throws(JSONReadError) in try json.skipValue() } }
        let unclosed = String(repeating: #"[{"a":"#, count: 100_000)
        let mixed = #expect(throws: JSONReadError.self) {
            try read(unclosed) { json throws(JSONReadError) in try json.skipValue() }
        }
        #expect(mixed?.isTooDeep == true)
    }

    @Test func nestingUpToTheLimitIsRead() throws {
        let depth = JSONReader.maximumDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        try read(text) { json throws(JSONReadError) in try json.skipValue() }
        let object = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        try read(object) { json throws(JSONReadError) in try json.skipValue() }
    }
}
