import PhotoModel
import PhotolibProtocol
import Varlink

extension LibraryError {
    /// The pinned varlink error for this library error.
    var varlinkError: VarlinkError {
        func named(_ name: PhotolibErrorName) -> String { name.qualified(in: .library) }
        switch self {
        case .notFound(let id, let index):
            var parameters: [String: JSONValue] = ["id": .string(id)]
            if let index { parameters["index"] = .int(index) }
            return VarlinkError(named(.notFound), parameters: parameters)
        case .invalidPredicate(let reason):
            return VarlinkError(named(.invalidPredicate), parameters: ["reason": .string(reason)])
        case .invalidChange(let index, let reason):
            return VarlinkError(named(.invalidChange), parameters: ["index": .int(index), "reason": .string(reason)])
        case .tokenExpired:
            return VarlinkError(named(.tokenExpired))
        case .permissionDenied:
            return VarlinkError(named(.permissionDenied))
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
