import Foundation
import PhotoLibrary

/// The domain of PhotoKit's errors.
public let PHPhotosErrorDomain = "PHPhotosErrorDomain"

/// PhotoKit's `PHPhotosError`: every error a handler or a throw of this module gives, with Apple's codes and raw
/// values, and the daemon's reason as its description (`localizedDescription`).
public struct PHPhotosError: CustomNSError, Hashable, Sendable, CustomStringConvertible {
    /// PhotoKit's error codes, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable {
        case internalError = -1
        case userCancelled = 3072
        case libraryVolumeOffline = 3114
        case relinquishingLibraryBundleToWriter = 3142
        case switchingSystemPhotoLibrary = 3143
        case networkAccessRequired = 3164
        case networkError = 3169
        case identifierNotFound = 3201
        case multipleIdentifiersFound = 3202
        case changeNotSupported = 3300
        case operationInterrupted = 3301
        case invalidResource = 3302
        case missingResource = 3303
        case notEnoughSpace = 3305
        case requestNotSupportedForAsset = 3306
        case accessRestricted = 3310
        case accessUserDenied = 3311
        case libraryInFileProviderSyncRoot = 5423
        case persistentChangeTokenExpired = 3105
        case persistentChangeDetailsUnavailable = 3210
        /// A parameter the daemon refused (a predicate, an id). Apple's PhotoKit has no such code; the value is the
        /// classic `paramErr`.
        case invalidParameter = -50
    }

    public static var errorDomain: String { PHPhotosErrorDomain }

    public let code: Code
    /// Why, in the daemon's words.
    public let reason: String

    public init(_ code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: reason] }
    public var description: String { reason }

    public static let internalError = Code.internalError
    public static let userCancelled = Code.userCancelled
    public static let libraryVolumeOffline = Code.libraryVolumeOffline
    public static let identifierNotFound = Code.identifierNotFound
    public static let multipleIdentifiersFound = Code.multipleIdentifiersFound
    public static let changeNotSupported = Code.changeNotSupported
    public static let operationInterrupted = Code.operationInterrupted
    public static let invalidResource = Code.invalidResource
    public static let missingResource = Code.missingResource
    public static let notEnoughSpace = Code.notEnoughSpace
    public static let requestNotSupportedForAsset = Code.requestNotSupportedForAsset
    public static let accessRestricted = Code.accessRestricted
    public static let accessUserDenied = Code.accessUserDenied
    public static let persistentChangeTokenExpired = Code.persistentChangeTokenExpired
    public static let persistentChangeDetailsUnavailable = Code.persistentChangeDetailsUnavailable
    public static let invalidParameter = Code.invalidParameter
}

/// `catch PHPhotosError.identifierNotFound`, as with Apple's bridged error codes.
public func ~= (code: PHPhotosError.Code, error: any Error) -> Bool {
    (error as? PHPhotosError)?.code == code
}

extension PHPhotosError {
    /// The PhotoKit error for any failure this module meets: the daemon's errors as the porting guide lists them.
    package init(_ error: any Error) {
        switch error {
        case let error as PHPhotosError:
            self = error
        case let error as PhotoLibraryError:
            self.init(Self.code(of: error), reason: error.message)
        default:
            self.init(.internalError, reason: "\(error)")
        }
    }

    private static func code(of error: PhotoLibraryError) -> Code {
        let reason = error.varlinkError?.parameters["reason"]?.stringValue ?? error.message
        switch error.code {
        case .notFound: return .identifierNotFound
        case .invalidChange: return reason.contains("read-only") ? .changeNotSupported : .invalidResource
        case .tokenExpired: return .persistentChangeTokenExpired
        case .permissionDenied: return LibraryClient.shared.hasReadOnlyGrant ? .accessRestricted : .accessUserDenied
        case .invalidPredicate, .invalidParameter: return .invalidParameter
        case .notEnoughSpace: return .notEnoughSpace
        case .cancelled: return .userCancelled
        case .daemonNotRunning: return .libraryVolumeOffline
        case .connectionFailed, .daemonStopping: return .operationInterrupted
        case .notSupported: return .requestNotSupportedForAsset
        case .unexpectedReply: return .internalError
        case .daemonError:
            // An image or file the daemon could not make: gone is missing, anything else does not read.
            guard error.varlinkError?.name.hasSuffix(".ImageUnavailable") == true else { return .internalError }
            return reason.contains("missing") ? .missingResource : .invalidResource
        }
    }
}
