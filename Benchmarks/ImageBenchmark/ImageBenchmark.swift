import BenchmarkSupport
import Foundation
import PhotoLibrary

/// Times `Images.RequestImage` of a real `photolibd` on camera-sized JPEGs imported by reference: 256-pixel
/// thumbnails beside `vipsthumbnail` and ImageMagick's `mogrify`, cached requests, and the first degraded reply.
@main
struct ImageBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else {
            print("usage: image-benchmark PHOTOLIBD_BINARY WORK_DIRECTORY [PHOTOS] [CLIENTS]")
            exit(2)
        }
        let binary = arguments[1], work = arguments[2]
        let count = arguments.count > 3 ? Int(arguments[3])! : 200
        let clients = arguments.count > 4 ? Int(arguments[4])! : 4
        let photos = try FileManager.default.contentsOfDirectory(atPath: work + "/photos")
            .filter { $0.hasSuffix(".jpg") }.sorted().prefix(count).map { work + "/photos/" + $0 }
        let ids = try await BenchmarkLibrary.importPhotos(photos, binary: binary, work: work)
        print("\(ids.count) photos of about 12 MP (\(megabytes(photos)) MB of JPEG); \(ProcessInfo.processInfo.activeProcessorCount) cores")

        print("\n256-pixel thumbnails of every photo (fit in 256x256), cache empty at the start of each line")
        print("maker                                 | total s | ms per photo | photos/s")
        var daemon = try await restartedWithEmptyCache(nil, binary: binary, work: work)
        let oneClient = try await thumbnails(of: ids, clients: 1, socket: daemon.socket)
        report("photolibd, 1 client", seconds: oneClient, photos: ids.count)
        daemon = try await restartedWithEmptyCache(daemon, binary: binary, work: work)
        let parallel = try await thumbnails(of: ids, clients: clients, socket: daemon.socket)
        report("photolibd, \(clients) clients", seconds: parallel, photos: ids.count)
        let vipsthumbnail = try timeTool("/usr/bin/vipsthumbnail", ["--size", "256", "-o", scratch(work) + "/%s.jpg"] + photos)
        report("vipsthumbnail --size 256 (1 process)", seconds: vipsthumbnail, photos: ids.count)
        BenchmarkRecord.figure("256-px thumbnails of \(ids.count) imported 12-MP photos, \(clients) clients", ours: parallel,
                               peer: vipsthumbnail, peerName: "vipsthumbnail --size 256", unit: "s", target: "")
        report("mogrify -thumbnail 256x256", seconds: try timeTool("/usr/bin/mogrify",
            ["-path", scratch(work), "-thumbnail", "256x256"] + photos), photos: ids.count)

        try await timeToGrid(Array(photos.prefix(24)), binary: binary, work: work)

        print("\ncached thumbnail requests over the socket (milliseconds from call to the last byte of the reply)")
        try cachedRequests(ids: ids, clients: clients, socket: daemon.socket)

        daemon = try await restartedWithEmptyCache(daemon, binary: binary, work: work)
        print("\nopportunistic requests for 1024x1024 of uncached photos, one at a time (milliseconds)")
        try await opportunistic(ids: Array(ids.prefix(50)), socket: daemon.socket)
        daemon.process.terminate()
        daemon.process.waitUntilExit()
    }

    /// Stops the daemon if running, empties its cache, and starts it again: nothing is cached or queued.
    static func restartedWithEmptyCache(_ running: (process: Process, socket: String)?, binary: String,
                                        work: String) async throws -> (process: Process, socket: String) {
        if let running {
            running.process.terminate()
            running.process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: work + "/cache")
        return try await BenchmarkLibrary.startDaemon(binary, work: work)
    }

    /// Seconds to get every photo's thumbnail through `clients` connections, each taking every `clients`th photo.
    static func thumbnails(of ids: [String], clients: Int, socket: String) async throws -> Double {
        let start = monotonicMilliseconds()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask {
                    let library = try await PhotoLibrary.connect(socketPath: socket)
                    for index in stride(from: client, to: ids.count, by: clients) {
                        let image = try await library.requestImage(RequestImageParameters(
                            assetId: ids[index], targetSize: ImageSize(width: 256, height: 256), resizeMode: .exact))
                        guard max(image.width, image.height) == 256 else { throw BenchmarkError("got \(image.width)x\(image.height)") }
                    }
                    await library.close()
                }
            }
            try await group.waitForAll()
        }
        return (monotonicMilliseconds() - start) / 1000
    }

    /// Time-to-grid with ingest, as a person does it: a daemon on an empty library imports `photos` (copied into the
    /// library, the default), then one client asks for each one's grid thumbnail (256 × 256, aspect fill, the fast
    /// resize mode: PhotoKit's grid request), one after another; beside one `vipsthumbnail` process over the same
    /// files; the median of three rounds each, the two alternating.
    static func timeToGrid(_ photos: [String], binary: String, work: String) async throws {
        let gridWork = work + "/grid"
        var ours = Measurements(), peer = Measurements()
        for _ in 0..<3 {
            try? FileManager.default.removeItem(atPath: gridWork)
            try FileManager.default.createDirectory(atPath: gridWork, withIntermediateDirectories: true)
            let (process, socket) = try await BenchmarkLibrary.startDaemon(binary, work: gridWork)
            let start = monotonicMilliseconds()
            let library = try await PhotoLibrary.connect(socketPath: socket)
            let imported = try await library.importFiles(photos)
            let ids = imported.files.compactMap(\.assetId)
            guard ids.count == photos.count else { throw BenchmarkError("imported \(ids.count) of \(photos.count) photos") }
            for id in ids {
                let image = try await library.requestImage(RequestImageParameters(
                    assetId: id, targetSize: ImageSize(width: 256, height: 256), contentMode: .aspectFill))
                guard min(image.width, image.height) == 256 else { throw BenchmarkError("got \(image.width)x\(image.height)") }
            }
            ours.append((monotonicMilliseconds() - start) / 1000)
            await library.close()
            process.terminate()
            process.waitUntilExit()
            peer.append(try timeTool("/usr/bin/vipsthumbnail", ["--size", "256", "-o", scratch(work) + "/%s.jpg"] + photos))
        }
        print(String(format: "\ntime-to-grid with ingest, %d photos (copied in, then one client asks for each grid "
                     + "thumbnail in turn): %.2f s against vipsthumbnail's %.2f s, %.2f×", photos.count, ours.median,
                     peer.median, ours.median / peer.median))
        BenchmarkRecord.figure("time-to-grid, \(photos.count) 12-MP photos copied in, one client", ours: ours.median,
                               peer: peer.median, peerName: "vipsthumbnail --size 256", unit: "s", target: "≤ 0.9×")
    }

    /// Median and p90 latency of one client, then requests per second of one and of `clients` clients.
    static func cachedRequests(ids: [String], clients: Int, socket: String) throws {
        let calls = ids.map { id in
            #"{"method":"io.photolibd.Images.RequestImage","parameters":{"assetId":"\#(id)","targetWidth":256,"targetHeight":256,"resizeMode":"exact"}}"#
        }
        let client = try RawVarlinkClient(socketPath: socket)
        var latencies = Measurements()
        for round in 0..<2_000 {
            let start = monotonicMilliseconds()
            _ = try client.call(calls[round % calls.count])
            latencies.append(monotonicMilliseconds() - start)
        }
        print(String(format: "1 client, %d requests: median %.3f ms, p90 %.3f ms, p99 %.3f ms", latencies.values.count,
                     latencies.median, latencies.percentile(0.9), latencies.percentile(0.99)))
        BenchmarkRecord.samples("cached 256-px thumbnail, 1 client", latencies.values, unit: "ms")
        BenchmarkRecord.figure("cached 256-px thumbnail p50, 1 client", ours: latencies.median, peer: nil, peerName: nil,
                               unit: "ms", target: "≤ 0.1 ms")
        for clientCount in Set([1, clients, clients * 2]).sorted() {
            let perClient = 20_000 / clientCount
            let start = monotonicMilliseconds()
            DispatchQueue.concurrentPerform(iterations: clientCount) { number in
                guard let client = try? RawVarlinkClient(socketPath: socket) else { return }
                for round in 0..<perClient {
                    _ = try? client.call(calls[(number * 7 + round) % calls.count])
                }
            }
            let seconds = (monotonicMilliseconds() - start) / 1000
            print(String(format: "%d clients, %d requests: %.0f requests/s", clientCount, perClient * clientCount,
                         Double(perClient * clientCount) / seconds))
            BenchmarkRecord.figure("cached 256-px thumbnails, \(clientCount) client\(clientCount == 1 ? "" : "s")",
                                   ours: Double(perClient * clientCount) / seconds, peer: nil, peerName: nil,
                                   unit: "requests/s", better: .higher, target: clientCount == 4 ? "≥ 20,000" : "")
        }
    }

    /// Time to the first reply (degraded: the EXIF thumbnail) and to the final one.
    static func opportunistic(ids: [String], socket: String) async throws {
        let library = try await PhotoLibrary.connect(socketPath: socket)
        var first = Measurements(), final = Measurements()
        var degradedFirst = 0
        for id in ids {
            let request = RequestImageParameters(assetId: id, targetSize: ImageSize(width: 1024, height: 1024))
            let start = monotonicMilliseconds()
            var replies = 0
            for try await image in library.images(request) {
                replies += 1
                if replies == 1 {
                    first.append(monotonicMilliseconds() - start)
                    if image.isDegraded { degradedFirst += 1 }
                }
                if !image.isDegraded { final.append(monotonicMilliseconds() - start) }
            }
        }
        await library.close()
        print(String(format: "first reply: median %.1f ms, p90 %.1f ms (%d of %d degraded); final: median %.1f ms, p90 %.1f ms",
                     first.median, first.percentile(0.9), degradedFirst, ids.count, final.median, final.percentile(0.9)))
    }

    static func report(_ maker: String, seconds: Double, photos: Int) {
        print(maker.padding(toLength: 37, withPad: " ", startingAt: 0)
            + String(format: " | %7.2f | %12.1f | %8.1f", seconds, seconds * 1000 / Double(photos), Double(photos) / seconds))
    }

    /// An empty scratch directory for the other tools' thumbnails.
    static func scratch(_ work: String) throws -> String {
        let path = work + "/scratch"
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func megabytes(_ paths: [String]) -> Int {
        paths.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) } >> 20
    }
}
