import Foundation
import Testing
import Varlink

@Suite struct JSONValueTests {
    private func roundTrip(_ value: JSONValue) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    private func decode(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test func integersRoundTripExactly() throws {
        for value in [0, 1, -1, Int.max, Int.min, 9_007_199_254_740_993] {
            #expect(try roundTrip(.int(value)) == .int(value))
        }
        #expect(try decode("9007199254740993") == .int(9_007_199_254_740_993))
    }

    @Test func fractionalNumbersDecodeAsDoublesAndIntegralOnesAsInts() throws {
        #expect(try decode("1.5") == .double(1.5))
        #expect(try decode("-0.25") == .double(-0.25))
        #expect(try decode("3.0") == .int(3))
        #expect(try decode("1e300") == .double(1e300))
        #expect(try roundTrip(.double(0.1)) == .double(0.1))
    }

    @Test func everyKindOfValueRoundTrips() throws {
        let value: JSONValue = [
            "null": nil,
            "bool": true,
            "int": 42,
            "double": 2.5,
            "string": "é \"quoted\" \n line",
            "array": [1, "two", [3.5], [:]],
            "object": ["nested": ["deeper": false]],
        ]
        #expect(try roundTrip(value) == value)
    }

    @Test func booleansAreNotNumbers() throws {
        #expect(try decode("true") == .bool(true))
        #expect(try decode("1") == .int(1))
        #expect(try decode("[true, 1]") == [.bool(true), .int(1)])
    }

    @Test func subscriptsReachIntoObjectsAndArrays() {
        let value: JSONValue = ["items": [["id": 1], ["id": 2]], "name": "library"]
        #expect(value["items"]?[1]?["id"] == 2)
        #expect(value["name"]?.stringValue == "library")
        #expect(value["missing"] == nil)
        #expect(value["items"]?[2] == nil)
        #expect(value["items"]?[-1] == nil)
        #expect(value[0] == nil)
        #expect(value["name"]?["key"] == nil)
    }

    @Test func accessorsReturnValuesOfTheirKindOnly() {
        #expect(JSONValue.int(3).intValue == 3)
        #expect(JSONValue.int(3).doubleValue == 3.0)
        #expect(JSONValue.double(3.5).doubleValue == 3.5)
        #expect(JSONValue.double(3.5).intValue == nil)
        #expect(JSONValue.bool(false).boolValue == false)
        #expect(JSONValue.string("1").intValue == nil)
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.object(["a": 1]).objectValue == ["a": 1])
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.null.stringValue == nil)
    }

    @Test func descriptionIsCompactJSONWithSortedKeys() throws {
        let value: JSONValue = ["b": [1, 2.5, nil], "a": "x\"\u{1}"]
        #expect(value.description == #"{"a":"x\"\u0001","b":[1,2.5,null]}"#)
        #expect(try decode(value.description) == value)
    }
}
