import Foundation
import Hummingbird
import PhotoLibrary

/// A request the gallery cannot answer as asked, with the HTTP status and a message the page shows as it is.
enum GalleryError: Error, HTTPResponseError, Sendable {
    case badRequest(String)
    case unauthorized
    case forbidden(String)
    case notFound(String)
    /// A `Range` that starts past the end of a file of `fileSize` bytes.
    case rangeNotSatisfiable(fileSize: Int64)
    case tooLarge(String)
    /// The daemon refused or could not be reached; `status` says which.
    case daemon(PhotoLibraryError)

    var status: HTTPResponse.Status {
        switch self {
        case .badRequest: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .rangeNotSatisfiable: .rangeNotSatisfiable
        case .tooLarge: .contentTooLarge
        case .daemon(let error):
            switch error.code {
            case .notFound: .notFound
            case .invalidPredicate, .invalidChange, .invalidParameter: .badRequest
            case .permissionDenied: .forbidden
            case .daemonNotRunning, .connectionFailed, .daemonStopping: .serviceUnavailable
            default: .badGateway
            }
        }
    }

    var message: String {
        switch self {
        case .badRequest(let message), .forbidden(let message), .notFound(let message), .tooLarge(let message): message
        case .unauthorized: "Open the address photolib-web printed (with its token) to sign in."
        case .rangeNotSatisfiable(let size): "the range starts past the end of the file (\(size) bytes)"
        case .daemon(let error): error.message
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        if case .rangeNotSatisfiable(let size) = self { headers[.contentRange] = "bytes */\(size)" }
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data()
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension PhotoLibraryError {
    /// This error as the gallery answers it.
    var gallery: GalleryError {
        code == .notFound ? .notFound(message) : .daemon(self)
    }
}
