import Foundation
import HTTPTypes
import Hummingbird
import PhotoLibrary

/// The pictures and files the page shows, read through the daemon's file transfers (`DaemonFiles`):
/// - `GET /image/ID/VERSION/SIZE`: the asset upright, fitted in SIZE×SIZE (256, 512, 1024, 2048) or `full`, from the
///   daemon's cache. VERSION changes with the pixels, so the answer is immutable and validated by its `ETag`.
/// - `GET /original/ID`: the asset's file, unchanged, with `Range` (206, 416); `?download=1` to save it.
struct MediaRoutes<Context: RequestContext>: Sendable {
    static var sizes: Set<String> { ["256", "512", "1024", "2048", "full"] }

    let connections: LibraryConnections
    let recentThumbnails: RecentThumbnails

    func add(to router: Router<Context>) {
        router.get("/image/:id/:version/:size") { request, context in try await image(request, context: context) }
        router.head("/image/:id/:version/:size") { request, context in try await image(request, context: context) }
        router.get("/original/:id") { request, context in
            let id = try AssetIdentifier.parameter(of: context)
            let data = try await connections.withLibrary { library throws(PhotoLibraryError) in
                try await library.requestImageData(for: id)
            }
            let file = MediaFile(path: data.path, mimeType: data.mimeType, fileSize: Int64(data.fileSize), filename: data.originalFilename)
            return try await FileResponse.make(file, request: request, files: connections.files,
                                               download: request.uri.queryParameters["download"] != nil)
        }
    }

    private func image(_ request: Request, context: Context) async throws -> Response {
        let id = try AssetIdentifier.parameter(of: context)
        guard let version = context.parameters.get("version"), version.count <= 32,
              let size = context.parameters.get("size"), Self.sizes.contains(size)
        else { throw GalleryError.notFound("no such image size") }
        let etag = "\"\(id)-\(version)-\(size)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "private, max-age=31536000, immutable"]
        if request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: headers)
        }
        let thumbnail = try await picture(of: id, key: "\(id)/\(version)/\(size)", side: Int(size))
        headers[.contentType] = thumbnail.mimeType
        headers[.contentLength] = String(thumbnail.bytes.readableBytes)
        return Response(status: .ok, headers: headers,
                        body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: thumbnail.bytes))
    }

    /// The picture from the daemon's cache, or a grid thumbnail a page fetched moments ago.
    private func picture(of id: String, key: String, side: Int?) async throws(GalleryError) -> RecentThumbnails.Thumbnail {
        if let kept = recentThumbnails.thumbnail(for: key) { return kept }
        let request = RequestImageParameters(assetId: id, targetSize: side.map { ImageSize(width: $0, height: $0) },
                                             deliveryMode: .highQuality)
        let image = try await connections.withLibrary { library throws(PhotoLibraryError) in
            try await library.requestImage(request)
        }
        let thumbnail = RecentThumbnails.Thumbnail(bytes: try await connections.files.read(image.path), mimeType: image.mimeType)
        if let side, side <= 512 { recentThumbnails.keep(thumbnail, for: key, assetId: id) }
        return thumbnail
    }
}

/// The shape of the daemon's asset ids (lowercase UUIDs, or the start of one), checked before any call so that a path
/// can carry nothing else.
enum AssetIdentifier {
    static func isWellFormed(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-")
        }
    }

    /// The route's `:id`, when it has the shape of an id.
    static func parameter(of context: some RequestContext) throws(GalleryError) -> String {
        guard let id = context.parameters.get("id"), isWellFormed(id) else { throw .notFound("no asset has this id") }
        return id
    }
}
