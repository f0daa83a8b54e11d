import Foundation
import Photos

// AssetsLibrary's error codes, with Apple's values (`ALAssetsLibrary.h`), in `ALAssetsLibraryErrorDomain`.
public var ALAssetsLibraryUnknownError: Int { -1 }
public var ALAssetsLibraryWriteFailedError: Int { -3300 }
public var ALAssetsLibraryWriteBusyError: Int { -3301 }
public var ALAssetsLibraryWriteInvalidDataError: Int { -3302 }
public var ALAssetsLibraryWriteIncompatibleDataError: Int { -3303 }
public var ALAssetsLibraryWriteDataEncodingError: Int { -3304 }
public var ALAssetsLibraryWriteDiskSpaceError: Int { -3305 }
public var ALAssetsLibraryDataUnavailableError: Int { -3310 }
public var ALAssetsLibraryAccessUserDeniedError: Int { -3311 }
public var ALAssetsLibraryAccessGloballyDeniedError: Int { -3312 }

/// The errors AssetsLibrary's blocks get: an `NSError` in `ALAssetsLibraryErrorDomain` with Apple's code, the daemon's
/// reason as its `localizedDescription` and the `PHPhotosError` behind it under `NSUnderlyingErrorKey`.
enum AssetsLibraryError {
    /// The error of a write (a save, an edit): a daemon stopping is busy (try again), a refused file invalid data.
    static func write(_ error: any Error) -> NSError {
        let photos = PHPhotosError(error)
        let code =
            switch photos.code {
            case .operationInterrupted: ALAssetsLibraryWriteBusyError
            case .invalidResource, .invalidParameter: ALAssetsLibraryWriteInvalidDataError
            case .changeNotSupported, .requestNotSupportedForAsset: ALAssetsLibraryWriteIncompatibleDataError
            case .notEnoughSpace: ALAssetsLibraryWriteDiskSpaceError
            default: access(photos) ?? ALAssetsLibraryWriteFailedError
            }
        return make(code, photos)
    }

    /// The error of a read (an enumeration, a look-up, bytes): what is gone or unreachable is unavailable.
    static func read(_ error: any Error) -> NSError {
        let photos = PHPhotosError(error)
        let code =
            switch photos.code {
            case .identifierNotFound, .missingResource, .invalidResource, .libraryVolumeOffline, .operationInterrupted:
                ALAssetsLibraryDataUnavailableError
            default: access(photos) ?? ALAssetsLibraryUnknownError
            }
        return make(code, photos)
    }

    /// A refused user: denied, or globally denied when the access policy lets the user only read.
    private static func access(_ error: PHPhotosError) -> Int? {
        switch error.code {
        case .accessUserDenied: ALAssetsLibraryAccessUserDeniedError
        case .accessRestricted: ALAssetsLibraryAccessGloballyDeniedError
        default: nil
        }
    }

    private static func make(_ code: Int, _ underlying: PHPhotosError) -> NSError {
        NSError(
            domain: ALAssetsLibraryErrorDomain, code: code,
            userInfo: [NSLocalizedDescriptionKey: underlying.reason, NSUnderlyingErrorKey: underlying])
    }
}
