import PhotoModel
import Varlink

extension LibraryError {
    /// The pinned varlink error for this library error.
    var varlinkError: VarlinkError {
        let prefix = "io.photolibd.Library."
        switch self {
        case .notFound(let id, let index):
            var parameters: [String: JSONValue] = ["id": .string(id)]
            if let index { parameters["index"] = .int(index) }
            return VarlinkError(prefix + "NotFound", parameters: parameters)
        case .invalidPredicate(let reason):
            return VarlinkError(prefix + "InvalidPredicate", parameters: ["reason": .string(reason)])
        case .invalidChange(let index, let reason):
            return VarlinkError(prefix + "InvalidChange", parameters: ["index": .int(index), "reason": .string(reason)])
        case .tokenExpired:
            return VarlinkError(prefix + "TokenExpired")
        case .permissionDenied:
            return VarlinkError(prefix + "PermissionDenied")
        case .invalidParameter(let parameter):
            return .invalidParameter(parameter)
        }
    }
}

/// Runs a library operation, turning `LibraryError`s into their varlink errors.
func mappingLibraryErrors<Result>(_ body: () async throws -> Result) async throws -> Result {
    do {
        return try await body()
    } catch let error as LibraryError {
        throw error.varlinkError
    }
}
