import DaemonCore
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

extension ImageError {
    /// The `io.photolibd.Images` error for this failure.
    var varlinkError: VarlinkError {
        func named(_ name: PhotolibErrorName) -> String { name.qualified(in: .images) }
        switch self {
        case .notFound(let assetId):
            return VarlinkError(named(.notFound), parameters: ["id": .string(assetId)])
        case .unavailable(let assetId, let reason):
            return VarlinkError(
                named(.imageUnavailable), parameters: ["assetId": .string(assetId), "reason": .string(reason)])
        case .permissionDenied:
            return VarlinkError(named(.permissionDenied))
        case .invalidParameter(let parameter):
            return .invalidParameter(parameter)
        }
    }
}

extension SourceError {
    /// The `io.photolibd.Import` error for it.
    var varlinkError: VarlinkError {
        switch kind {
        case .invalid:
            VarlinkError(
                PhotolibErrorName.invalidSource.qualified(in: .importer),
                parameters: ["path": .string(path), "reason": .string(reason)])
        case .notFound:
            VarlinkError(PhotolibErrorName.notFound.qualified(in: .importer), parameters: ["id": .string(path)])
        }
    }
}

extension UploadError {
    /// The `io.photolibd.Import` error for this failure.
    var varlinkError: VarlinkError {
        switch self {
        case .notEnoughSpace(let needed, let available):
            VarlinkError(
                PhotolibErrorName.notEnoughSpace.qualified(in: .importer),
                parameters: ["needed": .int(needed), "available": .int(available)])
        case .failed(let reason):
            VarlinkError(
                PhotolibErrorName.internalError.qualified(in: .importer), parameters: ["reason": .string(reason)])
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
