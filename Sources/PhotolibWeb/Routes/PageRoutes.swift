import Digests
import HTTPTypes
import HexEncoding
import Hummingbird

/// The page itself: `GET /` and `GET /page/NAME`, the HTML, CSS and ES modules of `Page/`, embedded in the
/// program as written. Only these names are served, so no path reaches a file of the machine.
struct PageRoutes<Context: RequestContext>: Sendable {
    struct PageFile: Sendable {
        var bytes: [UInt8]
        var contentType: String
        var etag: String

        init(_ bytes: [UInt8], _ contentType: String) {
            self.bytes = bytes
            self.contentType = contentType
            etag = "\"" + Digest.sha256(bytes).prefix(12).lowercaseHex + "\""
        }
    }

    static var files: [String: PageFile] {
        let javaScript = "text/javascript; charset=utf-8"
        return [
            "index.html": PageFile(PackageResources.index_html, "text/html; charset=utf-8"),
            "gallery.css": PageFile(PackageResources.gallery_css, "text/css; charset=utf-8"),
            "main.js": PageFile(PackageResources.main_js, javaScript),
            "api.js": PageFile(PackageResources.api_js, javaScript),
            "layout.js": PageFile(PackageResources.layout_js, javaScript),
            "timeline.js": PageFile(PackageResources.timeline_js, javaScript),
            "tiles.js": PageFile(PackageResources.tiles_js, javaScript),
            "scrubber.js": PageFile(PackageResources.scrubber_js, javaScript),
            "sidebar.js": PageFile(PackageResources.sidebar_js, javaScript),
            "viewer.js": PageFile(PackageResources.viewer_js, javaScript),
            "crop.js": PageFile(PackageResources.crop_js, javaScript),
            "info.js": PageFile(PackageResources.info_js, javaScript),
            "live.js": PageFile(PackageResources.live_js, javaScript),
            "upload.js": PageFile(PackageResources.upload_js, javaScript),
            "selection.js": PageFile(PackageResources.selection_js, javaScript),
            "video.js": PageFile(PackageResources.video_js, javaScript),
            "annotations.js": PageFile(PackageResources.annotations_js, javaScript),
            "folders.js": PageFile(PackageResources.folders_js, javaScript),
            "places.js": PageFile(PackageResources.places_js, javaScript),
            "duplicates.js": PageFile(PackageResources.duplicates_js, javaScript),
        ]
    }

    /// The page may load only its own scripts, styles, images and streams.
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' blob: data:; media-src 'self'; style-src 'self'; script-src 'self'; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    }

    let files = Self.files

    func add(to router: Router<Context>) {
        router.get("/") { request, _ in serve("index.html", request) }
        router.get("/page/:name") { request, context in serve(context.parameters.get("name") ?? "", request) }
    }

    private func serve(_ name: String, _ request: Request) -> Response {
        guard let file = files[name] else {
            return Response(
                status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "not found")))
        }
        var headers: HTTPFields = [
            .contentType: file.contentType, .eTag: file.etag, .cacheControl: "no-cache",
            .contentSecurityPolicy: Self.contentSecurityPolicy, HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "no-referrer",
        ]
        if request.headers[.ifNoneMatch] == file.etag {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(file.bytes.count)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
