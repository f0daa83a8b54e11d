@testable import PhotolibWeb
import Testing

struct ByteRangeTests {
    @Test(arguments: [
        ("bytes=0-99", ByteRange.part(0...99)),
        ("bytes=100-", .part(100...999)),
        ("bytes=-100", .part(900...999)),
        ("bytes=900-5000", .part(900...999)),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=5000-6000", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        ("bytes=10-5", .whole),
        ("bytes=0-1,5-6", .whole),
        ("items=0-5", .whole),
        ("bytes=abc", .whole),
        ("bytes=-x", .whole),
    ] as [(String, ByteRange)])
    func aRangeHeaderIsReadAgainstTheFilesSize(header: String, expected: ByteRange) {
        #expect(ByteRange(header: header, fileSize: 1000) == expected)
    }

    @Test func noHeaderMeansTheWholeFile() {
        #expect(ByteRange(header: nil, fileSize: 10) == .whole)
    }
}
