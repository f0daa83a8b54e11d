/// Why a place table could not be used; its description says which table and why, in one line.
public struct PlaceTableError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable {
        /// No file at the path.
        case missing
        /// The file exists but cannot be opened or read (permissions, I/O).
        case unreadable
        /// The file is not a SQLite database, or is damaged.
        case corrupt
        /// A SQLite database, but not a place table of the format this module reads.
        case wrongFormat
    }

    public let reason: Reason
    public let path: String
    /// What was found, in a few words ("file is not a database").
    public let detail: String

    public var description: String {
        switch reason {
        case .missing: "no place table at \(path) (scripts/setup builds it; the photolibd package installs it)"
        case .unreadable: "the place table at \(path) cannot be read: \(detail)"
        case .corrupt: "the place table at \(path) is corrupt: \(detail)"
        case .wrongFormat: "the place table at \(path) is not one this program reads: \(detail)"
        }
    }
}
