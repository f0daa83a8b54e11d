import CompactJSON
import Testing

struct JSONWriterTests {
    @Test func separatesArrayElementsAndMembers() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("list"); writer.beginArray(); writer.int(1); writer.null(); writer.double(.nan); writer.endArray()
        writer.key("flag"); writer.bool(false)
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"list":[1,null,null],"flag":false}"#)
    }

    @Test func writesIntegersAsTheirDecimalText() {
        let values: [Int64] = [0, 7, -7, 10, 99, 100, 1_000_000, .max, .min]
        var writer = JSONWriter()
        writer.array(values) { $0.int($1) }
        writer.int(UInt64.max)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[" + values.map(String.init).joined(separator: ",") + "],\(UInt64.max)")
    }

    @Test func aTextTakenInPartsReadsAsOneWrittenWhole() {
        var writer = JSONWriter()
        func takePart() -> [UInt8] {
            defer { writer.discardWritten() }
            return writer.bytes
        }
        writer.beginObject()
        writer.key("list"); writer.beginArray(); writer.int(1)
        var parts = [takePart()]
        #expect(writer.bytes.isEmpty)
        writer.int(2); writer.endArray()
        parts.append(takePart())
        writer.key("flag"); writer.bool(true); writer.endObject()
        parts.append(takePart())
        #expect(parts.map { String(decoding: $0, as: UTF8.self) } == [#"{"list":[1"#, ",2]", #","flag":true}"#])
    }
}
