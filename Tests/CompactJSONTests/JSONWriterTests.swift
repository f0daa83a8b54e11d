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
}
