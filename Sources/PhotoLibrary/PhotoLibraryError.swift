#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotolibProtocol
import Varlink

/// A failed call to photolibd: what went wrong, said so that a user can act on it.
public struct PhotoLibraryError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, for code that reacts to some of them (refetch on `tokenExpired`).
    public enum Code: String, Sendable, Hashable {
        /// There is no socket, or nothing listens on it.
        case daemonNotRunning
        /// The socket exists but the connection failed or broke.
        case connectionFailed
        /// The daemon's reply does not have the expected shape.
        case unexpectedReply
        /// No asset or collection has the id.
        case notFound
        case invalidPredicate
        case invalidChange
        /// The change token is too old or from another library: fetch again.
        case tokenExpired
        case permissionDenied
        case invalidParameter
        /// The daemon does not offer this method.
        case notSupported
        /// The daemon is stopping: connect again once it answers.
        case daemonStopping
        /// The library's disk has no room for what was sent.
        case notEnoughSpace
        /// The caller cancelled the transfer.
        case cancelled
        /// Any other error the daemon answered with; see `varlinkError`.
        case daemonError
    }

    public var code: Code
    /// The message to show the user.
    public var message: String
    /// The error the daemon answered with, when it answered with one.
    public var varlinkError: VarlinkError?

    public init(code: Code, message: String, varlinkError: VarlinkError? = nil) {
        self.code = code
        self.message = message
        self.varlinkError = varlinkError
    }

    public var description: String { message }

    /// The error for the daemon's error reply, with a readable message; `changeCount` is the number of changes
    /// of the `PerformChanges` call it answers, whose failing change is named only when there were several.
    public init(_ error: VarlinkError, changeCount: Int? = nil) {
        func parameter(_ name: String) -> String { error.parameters[name]?.stringValue ?? "?" }
        let change = changeCount == 1 ? nil : error.parameters["index"]?.intValue
        let (code, message): (Code, String) = switch PhotolibErrorName(qualifiedName: error.name) {
        case .notFound:
            (.notFound, "no asset or collection has the id '\(parameter("id"))'" + (change.map { " (change \($0))" } ?? ""))
        case .invalidPredicate:
            (.invalidPredicate, "invalid predicate: \(parameter("reason"))")
        case .invalidChange:
            (.invalidChange, (change.map { "change \($0) was rejected: " } ?? "the change was rejected: ") + parameter("reason"))
        case .tokenExpired:
            (.tokenExpired, "the change token has expired or belongs to another library; fetch the library again")
        case .permissionDenied:
            (.permissionDenied, "photolibd does not allow this user to do that (see the access settings of photolibd.conf)")
        case .invalidSource:
            (.invalidParameter, "\(parameter("path")) cannot be a source: \(parameter("reason"))")
        case .internalError:
            (.daemonError, "photolibd failed: \(parameter("reason"))")
        case .metadataUnavailable:
            (.daemonError, "the file of asset '\(parameter("id"))' cannot be read: \(parameter("reason"))")
        case .serviceStopping:
            (.daemonStopping, "photolibd is stopping; connect again once it answers")
        case .notEnoughSpace:
            (.notEnoughSpace, "the library's disk has no room for \(error.parameters["needed"]?.intValue ?? 0) more bytes "
                + "(\(error.parameters["available"]?.intValue ?? 0) free)")
        case .imageUnavailable, nil:
            Self.varlinkServiceError(error)
        }
        self.init(code: code, message: message, varlinkError: error)
    }

    /// The code and message of an error of the varlink service itself (or one this client does not know).
    private static func varlinkServiceError(_ error: VarlinkError) -> (Code, String) {
        func parameter(_ name: String) -> String { error.parameters[name]?.stringValue ?? "?" }
        return switch error.name.split(separator: ".").last.map(String.init) ?? error.name {
        case "InvalidParameter":
            (.invalidParameter, "photolibd rejected the parameter '\(parameter("parameter"))'")
        case "MethodNotImplemented", "MethodNotFound":
            (.notSupported, "this photolibd does not support \(parameter("method"))")
        case "InterfaceNotFound":
            (.notSupported, "this photolibd does not serve the interface \(parameter("interface"))")
        default:
            (.daemonError, "photolibd answered with the error \(error)")
        }
    }

    /// The error for any failure of a call on the connection to `socketPath`.
    init(_ error: any Error, socketPath: String) {
        switch error {
        case let error as PhotoLibraryError:
            self = error
        case let error as VarlinkError:
            self.init(error)
        case VarlinkConnectionError.cannotConnect(_, let reason):
            self.init(cannotConnectTo: socketPath, reason: reason)
        case VarlinkConnectionError.closed:
            self.init(code: .connectionFailed, message: "photolibd closed the connection (did it stop?)")
        case VarlinkConnectionError.malformedReply(let reason):
            self.init(code: .unexpectedReply, message: "unexpected reply from photolibd: \(reason)")
        default:
            self.init(code: .connectionFailed, message: "the connection to photolibd failed: \(error)")
        }
    }

    /// The error for a failed connect: the daemon is not running when there is no socket or nothing listens on it.
    private init(cannotConnectTo socketPath: String, reason: String) {
        let advice = DaemonStart.advice(socketPath: socketPath)
        var file = stat()
        if stat(socketPath, &file) != 0 {
            self.init(code: .daemonNotRunning, message: "photolibd is not running (no socket at \(socketPath)). \(advice)")
        } else if file.st_mode & S_IFMT != S_IFSOCK {
            self.init(code: .connectionFailed, message: "\(socketPath) is not a socket, so photolibd cannot be there: "
                + "check --socket, $PHOTOLIBD_SOCKET and the config file's socket setting")
        } else if reason.contains("(errno: \(ECONNREFUSED))") {
            self.init(code: .daemonNotRunning,
                      message: "photolibd is not running (nothing listens on \(socketPath)). \(advice)")
        } else {
            self.init(code: .connectionFailed, message: "cannot connect to photolibd at \(socketPath): \(reason)")
        }
    }


    /// The daemon did not answer within `timeout`.
    static func noAnswer(socketPath: String, within timeout: Duration) -> PhotoLibraryError {
        PhotoLibraryError(code: .connectionFailed, message: "nothing answered on \(socketPath) within \(timeout.components.seconds) s: "
            + "the program listening there is not photolibd, or photolibd is stuck")
    }

    /// The daemon's reply to `method` could not be read.
    static func unexpectedReply(method: String, reason: String) -> PhotoLibraryError {
        PhotoLibraryError(code: .unexpectedReply, message: "unexpected reply from photolibd to \(method): \(reason)")
    }
}
