import Foundation
import PhotoModel
import Testing

struct AdjustmentTests {
    static func basic(_ json: String) -> Adjustment {
        Adjustment(formatIdentifier: BasicAdjustment.formatIdentifier, formatVersion: BasicAdjustment.formatVersion,
                   data: Data(json.utf8).base64EncodedString())
    }

    @Test func aBasicAdjustmentReadsWhatItWrites() throws {
        let adjustment = BasicAdjustment(rotate: 270, flipHorizontal: true,
                                         crop: NormalizedRect(x: 0.25, y: 0, width: 0.5, height: 1), exposure: -1.5)
        #expect(try BasicAdjustment(data: adjustment.data) == adjustment)
        #expect(String(decoding: BasicAdjustment(rotate: 90).data, as: UTF8.self) == #"{"rotate":90}"#)
        #expect(try BasicAdjustment(data: Data("{}".utf8)) == BasicAdjustment())
        try adjustment.adjustment.validate(rendering: true)
    }

    @Test(arguments: [
        (#"{"rotate":45}"#, "rotate"),
        (#"{"rotate":true}"#, "rotate"),
        (#"{"flipHorizontal":1}"#, "flipHorizontal"),
        (#"{"exposure":11}"#, "exposure"),
        (#"{"crop":{"x":0.5,"y":0,"width":0.6,"height":1}}"#, "crop"),
        (#"{"crop":{"x":0,"y":0,"width":0,"height":1}}"#, "crop"),
        (#"{"crop":{"x":0,"y":0,"width":1}}"#, "crop"),
        (#"{"saturation":2}"#, "'saturation'"),
        (#"[90]"#, "JSON object"),
        ("not json", "JSON object"),
    ])
    func badBasicDataIsRefusedNamingTheProblem(json: String, word: String) {
        #expect { try Self.basic(json).validate(rendering: true) } throws: { error in
            (error as? AdjustmentError)?.reason.contains(word) == true
        }
    }

    @Test func dataMustBeBase64WithinOneMebibyteAndOnlyTheBasicFormatIsRendered() throws {
        let other = Adjustment(formatIdentifier: "com.example", formatVersion: "1", data: Data("x".utf8).base64EncodedString())
        try other.validate(rendering: false)
        #expect(throws: AdjustmentError.self) { try other.validate(rendering: true) }
        let large = Adjustment(formatIdentifier: "com.example", formatVersion: "1",
                               data: Data(count: Adjustment.maximumDataSize + 1).base64EncodedString())
        #expect(throws: AdjustmentError.self) { try large.validate(rendering: false) }
        try Adjustment(formatIdentifier: "com.example", formatVersion: "1",
                       data: Data(count: Adjustment.maximumDataSize).base64EncodedString()).validate(rendering: false)
        #expect(throws: AdjustmentError.self) {
            try Adjustment(formatIdentifier: "com.example", formatVersion: "1", data: "%%%").validate(rendering: false)
        }
        #expect(throws: AdjustmentError.self) {
            try Adjustment(formatIdentifier: "", formatVersion: "1", data: "").validate(rendering: false)
        }
    }
}
