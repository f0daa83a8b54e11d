import Foundation
import TestSupport
import Testing

@testable import FaceRecognition

/// dlib through `FaceFinder`, on a real portrait: NASA's public-domain photograph of the astronaut Eileen Collins that
/// scikit-image ships (scripts/setup installs it), and a cat from the same set.
struct FaceFinderTests {
    /// A picture of scikit-image's data set as RGB bytes, turned by the ImageMagick `operations` first.
    private static func picture(_ name: String, _ operations: [String] = []) throws -> (
        pixels: [UInt8], width: Int, height: Int
    ) {
        try SamplePhotos.rgb(of: SamplePhotos.folder() + "/" + name, operations)
    }

    private static let finder: Result<FaceFinder, any Error> = Result {
        try FaceFinder(modelsIn: FaceFinder.defaultModelDirectory(environment: ProcessInfo.processInfo.environment))
    }

    @Test func theAstronautsFaceIsFoundWhereItIsAndDescribedIn128Numbers() throws {
        let finder = try Self.finder.get()
        let astronaut = try Self.picture("astronaut.png")
        let found = try finder.faces(inRGB: astronaut.pixels, width: astronaut.width, height: astronaut.height)

        #expect(found.count == 1)
        let face = try #require(found.faces.first)
        // Her face, in the 512 × 512 picture, spans about x 190-270 and y 60-160 (seen in the picture).
        #expect((0.40...0.50).contains(face.box.x + face.box.width / 2), "\(face.box)")
        #expect((0.14...0.28).contains(face.box.y + face.box.height / 2), "\(face.box)")
        #expect((0.08...0.25).contains(face.box.width), "\(face.box)")
        #expect(face.descriptor.count == 128)
        #expect(face.landmarks.count == 5)
        #expect(face.landmarks.allSatisfy { face.box.x - 0.05 < $0.x && $0.x < face.box.x + face.box.width + 0.05 })
    }

    @Test func theSameFaceMirroredAndSmallerIsTheSamePersonAndACatHasNoFace() throws {
        let finder = try Self.finder.get()
        let astronaut = try Self.picture("astronaut.png")
        let mirrored = try Self.picture("astronaut.png", ["-flop", "-resize", "70%"])
        let cat = try Self.picture("chelsea.png")

        let original = try #require(
            try finder.faces(inRGB: astronaut.pixels, width: astronaut.width, height: astronaut.height).faces.first)
        let other = try #require(
            try finder.faces(inRGB: mirrored.pixels, width: mirrored.width, height: mirrored.height).faces.first)

        #expect(original.distance(to: other) < 0.6, "\(original.distance(to: other))")
        #expect(original.distance(to: other) > 0)
        #expect(try finder.faces(inRGB: cat.pixels, width: cat.width, height: cat.height).count == 0)
    }

    @Test func bytesThatAreNotThePictureAndMissingOrCorruptModelsAreRefusedWithAReason() throws {
        let finder = try Self.finder.get()
        #expect(throws: FaceRecognitionError.self) { try finder.faces(inRGB: [1, 2, 3], width: 10, height: 10) }
        let missing = try TemporaryDirectory()
        #expect {
            _ = try FaceFinder(modelsIn: missing.path)
        } throws: { error in
            (error as? FaceRecognitionError)?.description.contains(missing.path) == true
        }
        // Model files cut short, or not models at all.
        let corrupt = try TemporaryDirectory()
        let models = FaceFinder.defaultModelDirectory(environment: ProcessInfo.processInfo.environment)
        let predictor = try Data(contentsOf: URL(fileURLWithPath: models + "/" + FaceFinder.shapePredictorFile))
        try predictor.prefix(predictor.count / 2).write(
            to: URL(fileURLWithPath: corrupt.file(FaceFinder.shapePredictorFile)))
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: corrupt.file(FaceFinder.recognitionModelFile)))
        for detector in [FaceFinder.Detector.hog, .cnn] {
            #expect(throws: FaceRecognitionError.self) { try FaceFinder(modelsIn: corrupt.path, detector: detector) }
        }
    }
}
