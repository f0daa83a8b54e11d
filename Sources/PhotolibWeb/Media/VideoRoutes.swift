import CompactJSON
import Hummingbird
import NIOCore

/// The videos the page plays, with `Range` so that the player can seek:
/// - `GET /video/ID`: the asset's own file;
/// - `GET /api/videos/ID/conversion`: for a video the browser could not decode, the daemon's export to H.264 made
///   (or found kept) while the page waits: lines of JSON (`application/x-ndjson`), `{"progress": 0.42}` as it goes,
///   then `{"ready": "/video/ID/converted"}` or `{"error": REASON}` with the daemon's reason. A page that goes away
///   stops the export;
/// - `GET /video/ID/converted`: that export.
struct VideoRoutes<Context: RequestContext>: Sendable {
    let videos: VideoSource
    let files: DaemonFiles

    func add(to router: Router<Context>) {
        router.get("/video/:id") { request, context in
            let file = try await videos.original(for: try AssetIdentifier.parameter(of: context))
            return try await FileResponse.make(file, request: request, files: files, download: false)
        }
        router.get("/video/:id/converted") { request, context in
            let file = try await videos.converted(for: try AssetIdentifier.parameter(of: context))
            return try await FileResponse.make(file, request: request, files: files, download: false)
        }
        router.get("/api/videos/:id/conversion") { _, context in
            let id = try AssetIdentifier.parameter(of: context)
            try await videos.requireVideo(id)
            let videos = videos
            let body = ResponseBody { writer in
                do {
                    _ = try await videos.converted(for: id) { fraction in
                        try await writer.write(Self.line("progress") { $0.double((fraction * 1000).rounded() / 1000) })
                    }
                    try await writer.write(Self.line("ready") { $0.string("/video/\(id)/converted") })
                } catch let error as GalleryError {
                    try await writer.write(Self.line("error") { $0.string(error.message) })
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/x-ndjson", .cacheControl: "no-store"], body: body)
        }
    }

    /// One line of the conversion's answer: `{"NAME": VALUE}`.
    private static func line(_ name: StaticString, _ value: (inout JSONWriter) -> Void) -> ByteBuffer {
        var json = JSONWriter(capacity: 64)
        json.beginObject()
        json.key(name)
        value(&json)
        json.endObject()
        var buffer = ByteBuffer(bytes: json.bytes)
        buffer.writeString("\n")
        return buffer
    }
}
