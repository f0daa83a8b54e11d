import BenchmarkSupport
import Foundation
import PhotoLibrary

/// Times basic edits (rotate 90 and crop) of camera-sized JPEGs through a real `photolibd` beside `vips` doing the
/// same crop, turn and JPEG save, the thumbnail of the edited version after the commit, and what reading camera
/// data costs an import.
@main
struct EditBenchmark {
    /// The edit timed: a quarter turn of the middle 80% of the photo.
    static let crop = (x: 0.1, y: 0.1, width: 0.8, height: 0.8)

    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else {
            print("usage: edit-benchmark PHOTOLIBD_BINARY WORK_DIRECTORY [PHOTOS]")
            exit(2)
        }
        let binary = arguments[1], work = arguments[2]
        let count = arguments.count > 3 ? Int(arguments[3])! : 20
        let photos = try jpegs(in: work + "/photos", count: count)
        let ids = try await BenchmarkLibrary.importPhotos(photos, binary: binary, work: work)
        print("\(ids.count) photos of about 12 MP; \(ProcessInfo.processInfo.activeProcessorCount) cores")

        let (daemon, socket) = try await BenchmarkLibrary.startDaemon(binary, work: work)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let library = try await PhotoLibrary.connect(socketPath: socket)
        var commits = Measurements(), thumbnails = Measurements()
        let edit = BasicAdjustment(rotate: 90, crop: NormalizedRect(x: crop.x, y: crop.y, width: crop.width, height: crop.height))
        for id in ids {
            var changes = PhotoLibrary.ChangeBuilder()
            changes.editAsset(id, basic: edit)
            let start = monotonicMilliseconds()
            _ = try await library.performChanges(changes)
            let committed = monotonicMilliseconds()
            commits.append(committed - start)
            _ = try await library.requestImage(RequestImageParameters(
                assetId: id, targetSize: ImageSize(width: 256, height: 256), resizeMode: .exact, deliveryMode: .highQuality,
                version: .current))
            thumbnails.append(monotonicMilliseconds() - committed)
        }
        var reverts = PhotoLibrary.ChangeBuilder()
        for id in ids { reverts.revertAsset(id) }
        _ = try await library.performChanges(reverts)
        await library.close()

        let twoProcesses = try vipsCropAndTurn(photos, scratch: work + "/scratch")
        let cropOnly = try vipsCrop(photos, scratch: work + "/scratch")
        print("\nbasic edit (rotate 90, crop to the middle 80%), JPEG quality 92, milliseconds per photo")
        print(String(format: "photolibd editAsset, call to commit reply       median %6.1f  p90 %6.1f", commits.median,
                     commits.percentile(0.9)))
        print(String(format: "vips extract_area + vips rot (2 processes)      median %6.1f  p90 %6.1f  photolibd/vips %.2f",
                     twoProcesses.median, twoProcesses.percentile(0.9), commits.median / twoProcesses.median))
        BenchmarkRecord.figure("basic edit (rotate 90, crop) of a 12-MP JPEG", ours: commits.median, peer: twoProcesses.median,
                               peerName: "vips extract_area + vips rot", unit: "ms", target: "")
        print(String(format: "vips extract_area to JPEG (1 process, no turn)  median %6.1f  p90 %6.1f  photolibd/vips %.2f",
                     cropOnly.median, cropOnly.percentile(0.9), commits.median / cropOnly.median))
        print(String(format: "\n256x256 thumbnail of the edited version, from the commit reply: median %.1f ms, p90 %.1f ms, max %.1f ms",
                     thumbnails.median, thumbnails.percentile(0.9), thumbnails.percentile(1)))

        try await cameraDataCost(binary: binary, work: work, count: count)
    }

    /// The first `count` JPEGs of a directory, by name.
    static func jpegs(in directory: String, count: Int) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jpg") }.sorted()
            .prefix(count).map { directory + "/" + $0 }
    }

    /// Per photo: `vips extract_area` into a .v file, then `vips rot` to a JPEG of the same quality.
    static func vipsCropAndTurn(_ photos: [String], scratch: String) throws -> Measurements {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        var times = Measurements()
        for photo in photos {
            let area = try cropArea(of: photo)
            times.append(1000 * (try timeTool("/usr/bin/vips", ["extract_area", photo, scratch + "/cropped.v"] + area)
                + timeTool("/usr/bin/vips", ["rot", scratch + "/cropped.v", scratch + "/edited.jpg[Q=92]", "d90"])))
        }
        return times
    }

    /// Per photo: one `vips extract_area` straight to a JPEG, a lower bound for one process that also turns.
    static func vipsCrop(_ photos: [String], scratch: String) throws -> Measurements {
        var times = Measurements()
        for photo in photos {
            times.append(1000 * (try timeTool("/usr/bin/vips",
                                              ["extract_area", photo, scratch + "/edited.jpg[Q=92]"] + cropArea(of: photo))))
        }
        return times
    }

    /// `left top width height` of the crop in the photo's stored pixels.
    static func cropArea(of photo: String) throws -> [String] {
        func header(_ field: String) throws -> Double {
            let process = Process(), output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/vipsheader")
            process.arguments = ["-f", field, photo]
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchmarkError("vipsheader gave no \(field) for \(photo)")
            }
            return value
        }
        let width = try header("width"), height = try header("height")
        return [crop.x * width, crop.y * height, crop.width * width, crop.height * height].map { String(Int($0)) }
    }

    /// Imports by reference, into fresh libraries, the photos with their camera data and copies without it,
    /// alternating, and compares files per second.
    static func cameraDataCost(binary: String, work: String, count: Int) async throws {
        let withCamera = try jpegs(in: work + "/photos", count: count)
        let withoutCamera = try jpegs(in: work + "/photos-without-camera", count: count)
        var rates: [Bool: [Double]] = [true: [], false: []]
        for round in 0..<6 {
            let hasCamera = round % 2 == 0
            let roundWork = work + "/camera-round"
            try? FileManager.default.removeItem(atPath: roundWork)
            try FileManager.default.createDirectory(atPath: roundWork, withIntermediateDirectories: true)
            let (daemon, socket) = try await BenchmarkLibrary.startDaemon(binary, work: roundWork)
            let library = try await PhotoLibrary.connect(socketPath: socket)
            let start = monotonicMilliseconds()
            let result = try await library.importFiles(hasCamera ? withCamera : withoutCamera, mode: .reference)
            let seconds = (monotonicMilliseconds() - start) / 1000
            await library.close()
            daemon.terminate()
            daemon.waitUntilExit()
            guard result.files.allSatisfy({ $0.assetId != nil }) else { throw BenchmarkError("an import failed") }
            rates[hasCamera, default: []].append(Double(count) / seconds)
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let with = median(rates[true]!), without = median(rates[false]!)
        print(String(format: "\nreference imports of %d photos, median of 3 fresh libraries each: with camera data %.1f files/s, "
                     + "without %.1f files/s (camera data costs %.1f%%)", count, with, without, 100 * (1 - with / without)))
    }
}
