import Foundation
import Hummingbird
import PhotoLibrary
import Synchronization

/// `POST /api/uploads?name=FILENAME`: one file dropped on the page, its bytes as the body (the page sends one
/// request per file and shows each one's progress). The bytes reach the daemon through its socket (`Import.Upload`),
/// never as a path, since the daemon may not read this process's files (the system service, contract §11); then one
/// `createAsset` change makes the asset, or refuses the file with the daemon's reason, and nothing is half-imported.
///
/// The body waits in a file of a folder private to this process (`stagingRoot`) until it is sent: an upload's size
/// is said before its bytes. The answer is `{status, assetId?, error?}`: `imported`, `duplicate` (the library had
/// those bytes already: the asset that has them), `unsupported` or `failed`.
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
            let outcome = await importFile(at: path, named: name)
            let body = try JSONEncoder().encode(outcome)
            let status: HTTPResponse.Status = ["imported", "duplicate"].contains(outcome.status) ? .ok : .unprocessableContent
            return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    /// Sends the file to the daemon and asks for an asset made of it, with an id chosen here: an answer with another
    /// id names the asset that had the same bytes already.
    private func importFile(at path: String, named name: String) async -> Outcome {
        let transfers = connections.files.transfers
        let chosenId = UUID().uuidString.lowercased()
        do {
            let upload = try await transfers.onThread { () throws(PhotoLibraryError) in
                try transfers.upload(contentsOf: path, filename: name)
            }
            var changes = PhotoLibrary.ChangeBuilder()
            let placeholder = changes.createAsset(from: [NewAssetFile(upload: upload, originalFilename: name)], id: chosenId)
            let built = changes
            let result = try await connections.withLibrary(retry: false) { library throws(PhotoLibraryError) in
                try await library.performChanges(built)
            }
            let assetId = result.created[placeholder]
            return Outcome(status: assetId == chosenId ? "imported" : "duplicate", assetId: assetId)
        } catch let error as PhotoLibraryError {
            return Outcome(status: error.code == .invalidChange ? "unsupported" : "failed", error: error.message)
        } catch let error as GalleryError {
            return Outcome(status: "failed", error: error.message)
        } catch {
            return Outcome(status: "failed", error: "\(error)")
        }
    }

    /// The file's own name without any folder, as the library records it (`..`, slashes and control characters
    /// cannot reach the staging folder's parent).
    static func safeFilename(_ name: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? ""
        var cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0 != "\\" })
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        while cleaned.utf8.count > 200 { cleaned.removeFirst() }
        return cleaned.isEmpty ? "upload" : cleaned
    }
}
