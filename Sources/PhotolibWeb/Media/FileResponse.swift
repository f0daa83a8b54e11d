import Foundation
import HTTPTypes
import Hummingbird

/// The answer that sends a file the daemon named: whole, or the part its `Range` header asks for (206; 416 past the
/// end), so that a player can seek.
enum FileResponse {
    static func make(_ file: MediaFile, request: Request, files: DaemonFiles, download: Bool,
                     cacheControl: String = "private, max-age=3600") async throws(GalleryError) -> Response {
        var headers: HTTPFields = [
            .contentType: file.mimeType, .acceptRanges: "bytes", .cacheControl: cacheControl,
            .contentDisposition: "\(download ? "attachment" : "inline"); filename*=UTF-8''\(percentEncoded(file.filename))",
        ]
        switch ByteRange(header: request.headers[.range], fileSize: file.fileSize) {
        case .unsatisfiable:
            throw .rangeNotSatisfiable(fileSize: file.fileSize)
        case .part(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(file.fileSize)"
            headers[.contentLength] = String(range.count)
            return Response(status: .partialContent, headers: headers, body: try await files.body(file.path, range: range))
        case .whole:
            headers[.contentLength] = String(file.fileSize)
            let body = file.fileSize == 0 ? ResponseBody() : try await files.body(file.path, range: 0...(file.fileSize - 1))
            return Response(status: .ok, headers: headers, body: body)
        }
    }

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? "file"
    }
}
