import Foundation
import Testing
import TestSupport

/// The fuzz targets, built plainly, replay their seed corpus and the inputs of past findings (scripts/fuzz finds
/// new ones): a parser that crashes on one of them again fails here.
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus").path

    @Test(arguments: ["fuzz-varlink", "fuzz-predicate", "fuzz-exif", "fuzz-config", "fuzz-file-name-date", "fuzz-sidecar"])
    func everyInputOfTheCorpusIsReadWithoutACrash(target: String) throws {
        let folder = Self.corpus + "/" + target
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder).count
        let replay = try runTool(DaemonProcess.productsDirectory + "/" + target, [folder], checked: false)
        #expect(replay.status == 0, "\(target): \(replay.errors)")
        #expect(inputs > 0 && replay.output == "replayed \(inputs) inputs\n")
    }
}
