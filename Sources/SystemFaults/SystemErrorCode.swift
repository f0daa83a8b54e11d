import Foundation
import Glibc

/// The system error (errno) behind a failure, whichever API reported it: `POSIXError`, Foundation's `CocoaError`
/// and `NSError`s that carry one as their underlying error, or a code read from `errno` directly.
///
/// Failures are classed by this cause rather than by the API that reported them: a folder Foundation's `FileManager`
/// could not create on a read-only disk is the same passing fault as an `open` that failed with `EROFS`.
public struct SystemErrorCode: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The code `error` carries or wraps; nil when it names none.
    public init?(in error: any Error) {
        guard let code = Self.code(in: error as NSError, depth: 0) else { return nil }
        rawValue = code
    }

    /// Whether the fault may pass by itself, so that the work is worth trying again rather than reporting as failed:
    /// a disk full (or over quota), read-only, failing, or gone from under its folder (a dead share, a pulled disk).
    public var isPassingFault: Bool {
        [ENOSPC, EDQUOT, EROFS, EIO, ENOTCONN, ENODEV, ENXIO, ESTALE].contains(rawValue)
    }

    /// The system's message for the code, such as "Read-only file system".
    public var description: String { String(cString: strerror(rawValue)) }

    /// Underlying errors are followed this deep at most (a chain is a few levels long; a cycle would be endless).
    private static let deepestUnderlyingError = 8

    private static func code(in error: NSError, depth: Int) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: error.code) }
        // Read as any error first: on Linux a Swift error kept in `userInfo` (a `POSIXError`) is not cast to
        // `NSError` directly, only bridged.
        if depth < deepestUnderlyingError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error,
            let code = code(in: underlying as NSError, depth: depth + 1)
        {
            return code
        }
        guard error.domain == NSCocoaErrorDomain else { return nil }
        // Foundation's codes that name the cause without an underlying POSIX error.
        switch CocoaError.Code(rawValue: error.code) {
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteOutOfSpace: return ENOSPC
        default: return nil
        }
    }
}
