import CompactJSON
import Foundation
import PhotolibProtocol
import Testing

/// The image messages a cached thumbnail's round trip reads and writes without `JSONDecoder`/`JSONEncoder` must
/// read and write what their `Codable` conformances do.
struct ImageMessagesJSONTests {
    private func read<Value: JSONReadable>(_ type: Value.Type, _ text: String) throws -> Value {
        try Data(text.utf8).withUnsafeBytes { try JSONReader.read(Value.self, from: $0) }
    }

    @Test(arguments: [
        #"{"assetId":"a"}"#,
        #"{"assetId":"a\"b","targetWidth":256,"targetHeight":256,"resizeMode":"exact","contentMode":"aspectFill"}"#,
        #"{"assetId":"a","targetWidth":-1,"targetHeight":-1,"deliveryMode":"fast","version":"unadjusted"}"#,
        #"{"assetId":"a","normalizedCropRect":{"x":0.5,"y":0,"width":0.25,"height":1e-1},"other":[{"x":1}]}"#,
        #"{"assetId":"a","targetWidth":null,"contentMode":null,"normalizedCropRect":null,"version":null}"#,
    ])
    func readsRequestsAsTheDecoderDoes(text: String) throws {
        let decoded = try JSONDecoder().decode(RequestImageParameters.self, from: Data(text.utf8))
        #expect(try read(RequestImageParameters.self, text) == decoded)
    }

    /// A target size is the wire's width and height; both absent, or PhotoKit's -1s, ask for the whole image.
    @Test func aTargetSizeIsTheWiresWidthAndHeight() {
        let sized = RequestImageParameters(assetId: "a", targetSize: ImageSize(width: 256, height: 128))
        #expect(sized.targetWidth == 256 && sized.targetHeight == 128)
        #expect(sized.targetSize == ImageSize(width: 256, height: 128))
        #expect(RequestImageParameters(assetId: "a", targetSize: nil).targetSize == nil)
        #expect(RequestImageParameters(assetId: "a", targetWidth: -1, targetHeight: -1).targetSize == nil)
    }

    /// What the decoder refuses, the reader refuses too: the daemon then lets the decoder name the parameter.
    @Test(arguments: [
        #"{}"#, #"{"assetId":1}"#, #"{"assetId":"a","targetWidth":1.5}"#, #"{"assetId":"a","resizeMode":"huge"}"#,
        #"{"assetId":"a","normalizedCropRect":{"x":0,"y":0,"width":1}}"#, #"{"assetId":"a","deliveryMode":true}"#, "[]",
    ])
    func refusesWhatTheDecoderRefuses(text: String) {
        #expect(throws: JSONReadError.self) { try read(RequestImageParameters.self, text) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RequestImageParameters.self, from: Data(text.utf8)) }
    }

    @Test(arguments: [
        ImageResult(requestId: "7", path: "/cache/renditions/ab/c \"d\".jpg", width: 256, height: 171,
                    mimeType: "image/jpeg", isDegraded: false),
        ImageResult(requestId: "", path: "/é\u{1}", width: 0, height: 1 << 40, mimeType: "image/png", isDegraded: true),
    ])
    func writesAndReadsResultsAsTheCodableConformanceDoes(result: ImageResult) throws {
        var writer = JSONWriter()
        result.write(to: &writer)
        let written = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? NSDictionary
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(result)) as? NSDictionary
        #expect(written == encoded)
        #expect(try read(ImageResult.self, String(decoding: try JSONEncoder().encode(result), as: UTF8.self)) == result)
        #expect(throws: JSONReadError.self) { try read(ImageResult.self, #"{"requestId":"1","path":"/p"}"#) }
    }
}
