// The four figures of PhotoKit's bytes and videos, each beside its peer in the same run:
// requestImageData of a 12-MP JPEG against `cat`, PHAssetResourceManager.writeData of a 100 MB video against `cp`,
// a 720p export of a 1080p 30-s clip against the same ffmpeg command run by hand, and requestAVAsset's latency.
// The bytes are timed both where a user's own daemon serves them (the file read in place) and through the socket
// (Images.ReadFile, as the system service serves another user). Benchmarks/transfers.sh runs it.
//
// usage: transfer-benchmark PHOTOLIBD_BINARY WORK_DIRECTORY PHOTO_12MP [ROUNDS]
import BenchmarkSupport
import Foundation
import PhotoLibrary
import Photos
import TestSupport
import Varlink
import VideoExport

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    print("usage: transfer-benchmark PHOTOLIBD_BINARY WORK_DIRECTORY PHOTO_12MP [ROUNDS]")
    exit(2)
}
let (daemonBinary, work, photo) = (arguments[1], arguments[2], arguments[3])
let rounds = arguments.count > 4 ? Int(arguments[4])! : 20

/// Milliseconds `body` takes.
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Prints a figure beside its peer's and hands it to Benchmarks/report.sh.
func report(_ name: String, ours: Double, peer: Double, peerName: String, unit: String = "ms", target: String) {
    print(String(format: "%@: %.2f %@, %@ %.2f %@, ratio %.2f (target %@)", name, ours, unit, peerName, peer, unit,
                 ours / peer, target))
    BenchmarkRecord.figure(name.trimmingCharacters(in: .whitespaces), ours: ours, peer: peer, peerName: peerName,
                           unit: unit, better: unit == "MB/s" ? .higher : .lower, target: target)
}

// The library: the photo, a 100 MB video and a 1080p 30-s clip, imported by copy.
let media = work + "/media"
try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
let bigVideo = media + "/noise-100MB.mp4", clip = media + "/clip-1080p-30s.mp4"
if !FileManager.default.fileExists(atPath: bigVideo) {
    try VideoFixtures.clip(at: bigVideo, width: 1280, height: 720, seconds: 8, noise: true)
}
if !FileManager.default.fileExists(atPath: clip) {
    try VideoFixtures.clip(at: clip, width: 1920, height: 1080, seconds: 30)
}
let (daemon, socket) = try await BenchmarkLibrary.startDaemon(daemonBinary, work: work)
setenv("PHOTOLIBD_SOCKET", socket, 1)
let client = try await PhotoLibrary.connect(socketPath: socket)
let imported = try await client.importFiles([photo, bigVideo, clip], mode: .copy).files
let ids = imported.compactMap(\.assetId)
guard ids.count == 3 else { print("import failed: \(imported)"); exit(1) }
let assets = PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil)
let byId = Dictionary(uniqueKeysWithValues: (0..<assets.count).map { (assets[$0].localIdentifier, assets[$0]) })
let (photoAsset, videoAsset, clipAsset) = (byId[ids[0]]!, byId[ids[1]]!, byId[ids[2]]!)
let photoData = try await client.requestImageData(for: ids[0])
let videoFile = try await client.requestImageData(for: ids[1])
print(String(format: "photo %.1f MB, video %.1f MB, %d rounds", Double(photoData.fileSize) / 1e6,
             Double(videoFile.fileSize) / 1e6, rounds))

// 1. requestImageData beside cat (the file read by a process of its own, as a script would).
let synchronous = PHImageRequestOptions()
synchronous.isSynchronous = true
var ours: [Double] = [], socketRead: [Double] = [], cat: [Double] = []
let raw = try VarlinkRawConnection.connect(socketPath: socket)
for _ in 0..<rounds {
    ours.append(milliseconds {
        PHImageManager.default().requestImageDataAndOrientation(for: photoAsset, options: synchronous) { data, _, _, _ in
            precondition(data?.count == photoData.fileSize)
        }
    })
    socketRead.append(try milliseconds {
        let reply = try raw.call("io.photolibd.Images.ReadFile", parameters: ReadFileParameters(path: photoData.path),
                                 returning: ReadFileReply.self)
        var bytes = Data(count: reply.length)
        try bytes.withUnsafeMutableBytes { try raw.readRaw(exactly: $0) }
    })
    cat.append(try milliseconds { try runTool("/bin/sh", ["-c", "cat '\(photoData.path)' > /dev/null"]) })
}
report("requestImageData (12 MP JPEG)", ours: median(ours), peer: median(cat), peerName: "cat", target: "≤ 1.2")
report("  the same bytes through the socket (ReadFile)", ours: median(socketRead), peer: median(cat), peerName: "cat",
       target: "—")

// 2. writeData of the 100 MB video beside cp, as throughput.
let outputs = work + "/out"
try? FileManager.default.removeItem(atPath: outputs)
try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
let resource = PHAssetResource.assetResources(for: videoAsset)[0]
let megabytes = Double(videoFile.fileSize) / 1e6
var written: [Double] = [], copied: [Double] = [], socketCopied: [Double] = []
for round in 0..<max(3, rounds / 4) {
    let target = URL(fileURLWithPath: "\(outputs)/ours-\(round).mp4")
    written.append(megabytes / (try await Task { () -> Double in
        let start = ContinuousClock.now
        try await PHAssetResourceManager.default().writeData(for: resource, toFile: target, options: nil)
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }.value))
    copied.append(megabytes / (try milliseconds { try runTool("/bin/cp", [videoFile.path, "\(outputs)/cp-\(round).mp4"]) } / 1e3))
    socketCopied.append(megabytes / (try milliseconds {
        let output = open("\(outputs)/socket-\(round).mp4", O_WRONLY | O_CREAT | O_EXCL, 0o644)
        defer { close(output) }
        let reply = try raw.call("io.photolibd.Images.ReadFile", parameters: ReadFileParameters(path: videoFile.path),
                                 returning: ReadFileReply.self)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var left = reply.length
        while left > 0 {
            let count = try chunk.withUnsafeMutableBytes { try raw.readRaw(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<min(left, $0.count)])) }
            precondition(count > 0)
            _ = chunk.withUnsafeBytes { write(output, $0.baseAddress, count) }
            left -= count
        }
    } / 1e3))
    for name in ["ours", "cp", "socket"] { try? FileManager.default.removeItem(atPath: "\(outputs)/\(name)-\(round).mp4") }
}
report("writeData (100 MB video), MB/s", ours: median(written), peer: median(copied), peerName: "cp", unit: "MB/s", target: "≥ 0.8")
report("  the same bytes through the socket (ReadFile), MB/s", ours: median(socketCopied), peer: median(copied),
       peerName: "cp", unit: "MB/s", target: "—")

// 3. A 720p export of the 1080p 30-s clip beside the same ffmpeg command by hand (exports are kept: each round's is
// removed from the daemon's cache first).
let clipFile = try await client.requestImageData(for: ids[2])
let exports = work + "/cache/exports"
var exported: [Double] = [], byHand: [Double] = []
for round in 0..<2 {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: exports)) ?? [] {
        try? FileManager.default.removeItem(atPath: exports + "/" + name)
    }
    let target = URL(fileURLWithPath: "\(outputs)/export-\(round).mp4")
    exported.append(try await Task { () -> Double in
        let sessions = SessionBox()
        let start = ContinuousClock.now
        PHImageManager.default().requestExportSession(forVideo: clipAsset, options: nil, exportPreset: AVAssetExportPreset1280x720) {
            session, _ in sessions.set(session)
        }
        let session: AVAssetExportSession = try sessions.wait()
        session.outputURL = target
        session.outputFileType = .mp4
        await withCheckedContinuation { done in session.exportAsynchronously { done.resume() } }
        precondition(session.status == .completed, "\(String(describing: session.error))")
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
    }.value)
    let manual = VideoExport(input: clipFile.path, output: "\(outputs)/hand-\(round).mp4", preset: .size1280x720,
                             fileType: .mp4, sourceSize: (1920, 1080), duration: 30)
    let command = manual.arguments(writingTo: "\(outputs)/hand-\(round).mp4")
    byHand.append(try milliseconds { try runTool("/usr/bin/ffmpeg", command) })
    let probe = try VideoFixtures.probe(target.path)
    precondition(probe.videoCodec == "h264" && probe.width == 1280 && probe.height == 720)
}
report("720p export of a 1080p 30-s clip", ours: median(exported), peer: median(byHand), peerName: "ffmpeg by hand",
       target: "≤ 1.1")

// 4. requestAVAsset: from the call to the handler.
var avAsset: [Double] = []
for _ in 0..<rounds {
    avAsset.append(try await Task { () -> Double in
        let delivered = SessionBox()
        let start = ContinuousClock.now
        PHImageManager.default().requestAVAsset(forVideo: videoAsset, options: nil) { asset, _, _ in delivered.set(asset) }
        let _: AVAsset = try delivered.wait()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
    }.value)
}
print(String(format: "requestAVAsset: median %.2f ms, p90 %.2f ms (target ≤ 5 ms)", median(avAsset),
             avAsset.sorted()[avAsset.count * 9 / 10]))
BenchmarkRecord.figure("requestAVAsset of a video", ours: median(avAsset), peer: nil, peerName: nil, unit: "ms",
                       target: "≤ 5 ms")
await client.close()
daemon.terminate()

/// The object a handler gives, waited for on the benchmark's thread.
final class SessionBox: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var value: AnyObject?

    func set(_ value: AnyObject?) {
        self.value = value
        ready.signal()
    }

    func wait<T>() throws -> T {
        ready.wait()
        guard let value = value as? T else { throw BenchmarkError("the request gave nothing") }
        return value
    }
}
