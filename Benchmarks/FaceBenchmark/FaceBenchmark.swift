import BenchmarkSupport
import FaceRecognition
import Foundation
import TestSupport

/// Times finding and describing the faces of a 12-megapixel photo on renditions of three sizes, with dlib's HOG
/// detector and with its CNN detector, in CPU time (of one core when OPENBLAS_NUM_THREADS=1, which OpenBLAS reads as it
/// loads, before `main`: Benchmarks/faces.sh sets it), and says how many faces
/// each found. The photo is NASA's public-domain portrait of Eileen Collins from scikit-image, set in a 4000 × 3000
/// frame; the rendition's own cost (libvips' `vipsthumbnail` from the JPEG) is timed beside.
/// Usage: face-benchmark WORK_DIRECTORY [MODELS_DIRECTORY]
@main struct FaceBenchmark {
    static let sides = [640, 1024, 1600]
    static let rounds = 5

    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            print("usage: face-benchmark WORK_DIRECTORY [MODELS_DIRECTORY]")
            exit(2)
        }
        let work = arguments[1]
        let models =
            arguments.count > 2
            ? arguments[2] : FaceFinder.defaultModelDirectory(environment: ProcessInfo.processInfo.environment)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let photo = try makePhoto(in: work)
        print("photo: \(photo), 4000 × 3000; models: \(models)")

        let finders: [(String, FaceFinder)] = [
            ("HOG", try FaceFinder(modelsIn: models, detector: .hog)),
            ("CNN", try FaceFinder(modelsIn: models, detector: .cnn)),
        ]
        print("rendition  detector  faces  CPU ms (least of \(rounds))  wall ms (median)  rendition ms (vipsthumbnail)")
        for side in sides {
            let rendition = work + "/rendition-\(side).jpg"
            var renditionTimes = Measurements()
            for _ in 0..<rounds {
                let seconds = try timeTool(
                    "/usr/bin/vipsthumbnail", [photo, "--size", "\(side)", "-o", rendition + "[Q=90]"])
                renditionTimes.append(seconds * 1000)
            }
            let pixels = try SamplePhotos.rgb(of: rendition)
            for (name, finder) in finders {
                var cpu = Double.infinity
                var wall = Measurements()
                var found = 0
                for _ in 0..<rounds {
                    let (cpuStart, wallStart) = (processCPUMilliseconds(), monotonicMilliseconds())
                    found = try finder.faces(inRGB: pixels.pixels, width: pixels.width, height: pixels.height).count
                    cpu = min(cpu, processCPUMilliseconds() - cpuStart)
                    wall.append(monotonicMilliseconds() - wallStart)
                }
                print(
                    "\(side)\t   \(name)\t     \(found)\t\(String(format: "%8.1f", cpu))\t\t\(String(format: "%8.1f", wall.percentile(0.5)))\t\t\(String(format: "%6.1f", renditionTimes.percentile(0.5)))"
                )
                BenchmarkRecord.figure(
                    "faces of a 12-MP photo, \(name) on a \(side)-pixel rendition (CPU)", ours: cpu, peer: nil,
                    peerName: nil, unit: "ms", target: "≤ 250 ms")
            }
        }
    }

    /// The portrait in a 4000 × 3000 frame, as a camera's JPEG.
    static func makePhoto(in work: String) throws -> String {
        let located = try SamplePhotos.folder() + "/astronaut.png"
        let photo = work + "/portrait-12mp.jpg"
        try runTool(
            "/usr/bin/convert",
            [
                located, "-resize", "3000x3000", "-gravity", "center", "-background", "gray", "-extent", "4000x3000",
                "-quality", "92", photo,
            ])
        return photo
    }
}
