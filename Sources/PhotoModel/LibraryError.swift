/// The library's errors, each matching a pinned varlink error of `io.photolibd.Library`.
public enum LibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No object has this id (`index` names the change, inside `PerformChanges`).
    case notFound(id: String, index: Int? = nil)
    case invalidPredicate(reason: String)
    case invalidChange(index: Int, reason: String)
    case tokenExpired
    case permissionDenied
    /// A parameter that parsed but makes no sense (a negative page size, an unknown sort key).
    case invalidParameter(String)

    public var description: String {
        switch self {
        case .notFound(let id, let index): "no object with id '\(id)'" + (index.map { " (change \($0))" } ?? "")
        case .invalidPredicate(let reason): "invalid predicate: \(reason)"
        case .invalidChange(let index, let reason): "change \(index) is invalid: \(reason)"
        case .tokenExpired: "the change token is expired or from another library"
        case .permissionDenied: "permission denied"
        case .invalidParameter(let parameter): "invalid parameter '\(parameter)'"
        }
    }
}
