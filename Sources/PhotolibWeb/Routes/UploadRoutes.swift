import Foundation
import Hummingbird
import PhotoLibrary
import Synchronization

/// `POST /api/uploads?name=FILENAME`: one file dropped on the page, its bytes as the body (the page sends one
/// request per file and shows each one's progress). The file is staged in a folder of its own under `stagingRoot`
/// (private to the user) and handed to the daemon's `ImportFiles`, which moves it into the library or says why not;
/// the staging folder is removed either way, so nothing is left half-imported. The answer is `{status, assetId?,
/// error?}` with the daemon's status: `imported`, `duplicate`, `unsupported`, `failed`.
///
/// The PhotoKit work's byte upload replaces the staging for a daemon that cannot read the user's files (the system
/// service); this route keeps its shape.
struct UploadRoutes<Context: RequestContext>: Sendable {
    /// The largest file accepted.
    static var maximumSize: Int64 { 16 << 30 }

    let connections: LibraryConnections
    let stagingRoot: String
    let fileIO = FileIO()

    private struct Outcome: Encodable {
        var status: String
        var assetId: String?
        var error: String?
    }

    func add(to router: Router<Context>) {
        router.post("/api/uploads") { request, context in
            let name = Self.safeFilename(request.uri.queryParameters["name"].map(String.init) ?? "")
            if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > Self.maximumSize {
                throw GalleryError.tooLarge("\(name) is larger than the gallery accepts (16 GiB)")
            }
            let folder = stagingRoot + "/" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/" + name
            let received = Atomic<Int64>(0)
            let limited = request.body.map { buffer in
                if received.add(Int64(buffer.readableBytes), ordering: .relaxed).newValue > Self.maximumSize {
                    throw GalleryError.tooLarge("\(name) is larger than the gallery accepts (16 GiB)")
                }
                return buffer
            }
            try await fileIO.writeFile(contents: limited, path: path, context: context)
            let result = try await connections.withLibrary(retry: false) { library throws(PhotoLibraryError) in
                try await library.importFiles([path], mode: .move)
            }
            let file = result.files.first
            // The staging folder is the gallery's business: the page is told of the file by its own name.
            let reason = file?.error?.replacingOccurrences(of: path, with: name)
            let outcome = Outcome(status: file?.status.rawValue ?? "failed", assetId: file?.assetId,
                                  error: reason ?? (file == nil ? "the daemon did not say what became of the file" : nil))
            let body = try JSONEncoder().encode(outcome)
            let status: HTTPResponse.Status = ["imported", "duplicate"].contains(outcome.status) ? .ok : .unprocessableContent
            return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    /// The file's own name without any folder, as the import records it (`..`, slashes and control characters
    /// cannot reach the staging folder's parent).
    static func safeFilename(_ name: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? ""
        var cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0 != "\\" })
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        while cleaned.utf8.count > 200 { cleaned.removeFirst() }
        return cleaned.isEmpty ? "upload" : cleaned
    }
}
