import Foundation
import HTTPTypes
import Hummingbird
import PhotoLibrary

/// The pictures and files the page shows:
/// - `GET /image/ID/VERSION/SIZE`: the asset upright, fitted in SIZE×SIZE (256, 512, 1024, 2048) or `full`, from the
///   daemon's cache. VERSION changes with the pixels, so the answer is immutable and validated by its `ETag`.
/// - `GET /original/ID`: the asset's file, unchanged, with `Range` (206, 416); `?download=1` to save it.
/// - `GET /video/ID`: the video to play, with `Range` so that the player can seek.
struct MediaRoutes<Context: RequestContext>: Sendable {
    static var sizes: Set<String> { ["256", "512", "1024", "2048", "full"] }

    let connections: LibraryConnections
    let videos: VideoSource
    let fileIO = FileIO()

    func add(to router: Router<Context>) {
        router.get("/image/:id/:version/:size") { request, context in try await image(request, context: context) }
        router.head("/image/:id/:version/:size") { request, context in try await image(request, context: context) }
        router.get("/original/:id") { request, context in
            let id = try assetId(context)
            let data = try await connections.withLibrary { library throws(PhotoLibraryError) in
                try await library.requestImageData(for: id)
            }
            let file = MediaFile(path: data.path, mimeType: data.mimeType, fileSize: Int64(data.fileSize), filename: data.originalFilename)
            return try await send(file, request: request, context: context,
                                  download: request.uri.queryParameters["download"] != nil)
        }
        router.get("/video/:id") { request, context in
            let file = try await videos.playableFile(for: try assetId(context))
            return try await send(file, request: request, context: context, download: false)
        }
    }

    private func assetId(_ context: Context) throws(GalleryError) -> String {
        guard let id = context.parameters.get("id"), AssetIdentifier.isWellFormed(id) else {
            throw .notFound("no asset has this id")
        }
        return id
    }

    private func image(_ request: Request, context: Context) async throws -> Response {
        let id = try assetId(context)
        guard let version = context.parameters.get("version"), version.count <= 32,
              let size = context.parameters.get("size"), Self.sizes.contains(size)
        else { throw GalleryError.notFound("no such image size") }
        let etag = "\"\(id)-\(version)-\(size)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "private, max-age=31536000, immutable"]
        if request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: headers)
        }
        let side = Int(size)
        let options = ImageRequestOptions(targetSize: side.map { ImageSize(width: $0, height: $0) }, deliveryMode: .highQuality)
        let image = try await connections.withLibrary { library throws(PhotoLibraryError) in
            try await library.requestImage(for: id, options: options)
        }
        headers[.contentType] = image.mimeType
        let body = try await fileIO.loadFile(path: image.path, context: context)
        if let length = body.contentLength { headers[.contentLength] = String(length) }
        return Response(status: .ok, headers: headers, body: request.method == .head ? ResponseBody() : body)
    }

    /// Sends a file whole, or the part its `Range` header asks for.
    private func send(_ file: MediaFile, request: Request, context: Context, download: Bool) async throws -> Response {
        var headers: HTTPFields = [
            .contentType: file.mimeType, .acceptRanges: "bytes", .cacheControl: "private, max-age=3600",
            .contentDisposition: "\(download ? "attachment" : "inline"); filename*=UTF-8''\(Self.percentEncoded(file.filename))",
        ]
        switch ByteRange(header: request.headers[.range], fileSize: file.fileSize) {
        case .unsatisfiable:
            throw GalleryError.rangeNotSatisfiable(fileSize: file.fileSize)
        case .part(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(file.fileSize)"
            headers[.contentLength] = String(range.count)
            let body = try await fileIO.loadFile(path: file.path, range: Int(range.lowerBound)...Int(range.upperBound), context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        case .whole:
            headers[.contentLength] = String(file.fileSize)
            let body = file.fileSize == 0 ? ResponseBody() : try await fileIO.loadFile(path: file.path, context: context)
            return Response(status: .ok, headers: headers, body: body)
        }
    }

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? "file"
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
}
