import BenchmarkSupport
import Foundation
import PhotoLibrary

/// Times RAW renditions through the daemon beside the tools a user would reach for, on the same 24-MP DNG files
/// with an embedded preview: a 256-pixel thumbnail beside `exiftool -b -PreviewImage | vipsthumbnail`, and a
/// full-size decode (the whole request: decode, then a JPEG of 24 MP) beside LibRaw's own `dcraw_emu` writing a
/// PPM. Each file is asked for once (nothing is cached).
@main
struct RawBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 4 else {
            print("usage: raw-benchmark PHOTOLIBD_BINARY WORK_DIRECTORY DNG...")
            exit(2)
        }
        let binary = arguments[1], work = arguments[2], files = Array(arguments[3...])
        let ids = try await BenchmarkLibrary.importPhotos(files, binary: binary, work: work)
        try? FileManager.default.removeItem(atPath: work + "/cache")
        let (daemon, socket) = try await BenchmarkLibrary.startDaemon(binary, work: work)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        let library = try await PhotoLibrary.connect(socketPath: socket)

        // A grid's request (opportunistic): its final image, which the preview answers.
        var ours = Measurements(), peer = Measurements()
        for (id, file) in zip(ids, files) {
            let grid = RequestImageParameters(assetId: id, targetSize: ImageSize(width: 256, height: 256), resizeMode: .exact)
            var start = monotonicMilliseconds()
            var thumbnail: ImageResult?
            for try await image in library.images(grid) { thumbnail = image }
            ours.append(monotonicMilliseconds() - start)
            guard let thumbnail, max(thumbnail.width, thumbnail.height) == 256 else { throw BenchmarkError("no 256-px thumbnail") }
            start = monotonicMilliseconds()
            try shell("exiftool -b -PreviewImage '\(file)' | vipsthumbnail stdin --size 256 -o '\(work)/peer.jpg'")
            peer.append(monotonicMilliseconds() - start)
        }
        report("256-px thumbnail of a 24-MP DNG (its preview)", ours, peer, peerName: "exiftool -b -PreviewImage | vipsthumbnail")

        ours = Measurements()
        peer = Measurements()
        for (id, file) in zip(ids, files) {
            var start = monotonicMilliseconds()
            _ = try await library.requestImage(RequestImageParameters(assetId: id, deliveryMode: .highQuality))
            ours.append(monotonicMilliseconds() - start)
            start = monotonicMilliseconds()
            try shell("dcraw_emu -w -Z '\(work)/peer.ppm' '\(file)'")
            peer.append(monotonicMilliseconds() - start)
        }
        report("full-size decode of a 24-MP DNG", ours, peer, peerName: "dcraw_emu -w")
        await library.close()
    }

    static func report(_ what: String, _ ours: Measurements, _ peer: Measurements, peerName: String) {
        print(String(format: "%@: photolibd median %.0f ms, %@ median %.0f ms, ratio %.2f (target: at most 1.2)",
                     what, ours.median, peerName, peer.median, ours.median / peer.median))
        BenchmarkRecord.figure(what, ours: ours.median, peer: peer.median, peerName: peerName, unit: "ms", target: "≤ 1.2×")
    }

    static func shell(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("\(command) failed") }
    }
}
