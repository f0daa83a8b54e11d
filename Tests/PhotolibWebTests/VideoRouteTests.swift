import Foundation
import HTTPTypes
import NIOCore
import PhotoLibrary
import TestSupport
import Testing

@testable import PhotolibWeb

/// The videos the page plays: the daemon's H.264 export of a video the browser cannot decode, made with progress and
/// served in ranges, and the daemon's reason when it cannot be made.
@Suite(.serialized)
struct VideoRouteTests {
    @Test func anHEVCVideoIsConvertedWithProgressAndServedInRangesAsH264() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 0)
        let clip = try VideoFixtures.clip(
            at: gallery.daemon.directory + "/hevc.mp4", width: 160, height: 120, seconds: 2,
            codec: "libx265")
        let id = try #require(try await gallery.importing([clip]).first)
        let received = try TemporaryDirectory()
        try await gallery.test { client in
            // More patience than 20 s without a byte: on a loaded machine the daemon's ffmpeg may not report its first
            // progress that soon.
            var patient = client
            patient.timeout = .seconds(120)
            func get(_ uri: String, _ headers: HTTPFields = gallery.signedIn) async throws -> (
                GalleryResponse, ByteBuffer
            ) {
                let response = try await patient.execute(uri: uri, method: .get, headers: headers)
                return (response, response.body)
            }
            let (conversion, progress) = try await get("/api/videos/\(id)/conversion")
            #expect(conversion.status == .ok)
            #expect(conversion.headers[.contentType] == "application/x-ndjson")
            let lines = try Self.lines(progress)
            #expect(lines.last?["ready"] as? String == "/video/\(id)/converted", "\(lines)")
            #expect(
                lines.dropLast().allSatisfy { ($0["progress"] as? Double).map((0...1).contains) == true }, "\(lines)")

            let (whole, video) = try await get("/video/\(id)/converted")
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentType] == "video/mp4")
            #expect(whole.headers[.acceptRanges] == "bytes")
            let path = received.file("converted.mp4")
            try Data(buffer: video).write(to: URL(fileURLWithPath: path))
            let probe = try VideoFixtures.probe(path)
            #expect(probe.videoCodec == "h264" && probe.audioCodec == "aac")
            #expect(abs(probe.duration - 2) < 0.5)

            var headers = gallery.signedIn
            headers[.range] = "bytes=1000-1999"
            let (part, bytes) = try await get("/video/\(id)/converted", headers)
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 1000-1999/\(video.readableBytes)")
            #expect(Array(bytes.readableBytesView) == Array(video.readableBytesView.dropFirst(1000).prefix(1000)))

            // Asked again, the export kept by the daemon is ready at once: one reply, no progress.
            let again = try Self.lines(try await get("/api/videos/\(id)/conversion").1)
            #expect(again.count == 1 && again.first?["ready"] != nil, "\(again)")
        }
    }

    @Test func aBrokenVideoGetsTheDaemonsReasonInsteadOfAConversion() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 0)
        // Its index is at the end: cut short, no player and no ffmpeg can read it.
        let clip = try VideoFixtures.clip(at: gallery.daemon.directory + "/broken.mov", seconds: 2)
        let id = try #require(try await gallery.importing([clip]).first)
        let library = try await PhotoLibrary.connect(socketPath: gallery.daemon.socketPath)
        let stored = try await library.requestImageData(for: id)
        await library.close()
        #expect(truncate(stored.path, off_t(stored.fileSize / 2)) == 0)
        try await gallery.test { client in
            let conversion = try await client.execute(
                uri: "/api/videos/\(id)/conversion", method: .get, headers: gallery.signedIn)
            let lines = try Self.lines(conversion.body)
            let reason = try #require(lines.last?["error"] as? String, "\(lines)")
            #expect(reason.contains("export failed"), "\(reason)")
            let converted = try await client.execute(
                uri: "/video/\(id)/converted", method: .get, headers: gallery.signedIn)
            #expect(converted.status != .ok)
            #expect(String(buffer: converted.body).contains("export failed"))
        }
    }

    @Test func aConversionOfAPhotoOrOfNoAssetIsRefusedBeforeItStarts() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        try await gallery.test { client in
            let photo = try await client.execute(
                uri: "/api/videos/\(gallery.assetIds[0])/conversion", method: .get,
                headers: gallery.signedIn)
            #expect(photo.status == .badRequest)
            #expect(String(buffer: photo.body).contains("not a video"))
            let unknown = try await client.execute(
                uri: "/api/videos/00000000-0000-4000-8000-000000000000/conversion",
                method: .get, headers: gallery.signedIn)
            #expect(unknown.status == .notFound)
        }
    }

    private static func lines(_ body: ByteBuffer) throws -> [[String: Any]] {
        try String(buffer: body).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }
}
