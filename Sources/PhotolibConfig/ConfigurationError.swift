import Foundation

/// Why a configuration file could not be used.
///
/// Every case names the file, and where it can the key (as a dotted path such as
/// `source[1].mode`) and the line, so that the message says what to fix and where.
public enum ConfigurationError: Error, Sendable, Hashable {
    /// The file does not exist.
    case fileNotFound(file: String)
    /// The file exists but could not be read.
    case unreadableFile(file: String, reason: String)
    /// The file is not valid TOML.
    case syntaxError(file: String, line: Int, column: Int, reason: String)
    /// The file sets a key the configuration does not have.
    case unknownKey(file: String, key: String, line: Int?, knownKeys: [String])
    /// A key's value has the wrong TOML type.
    case wrongType(file: String, key: String, line: Int?, expected: String, found: String)
    /// A key's value has the right type but is not allowed.
    case invalidValue(file: String, key: String, line: Int?, reason: String)
    /// A key that must be set is missing; `example` is a line that would set it.
    case missingKey(file: String, key: String, line: Int?, example: String)
    /// A user name that this system does not know.
    case unknownUser(file: String, key: String, line: Int?, name: String)

    /// The file the error is about.
    public var file: String {
        switch self {
        case .fileNotFound(let file), .unreadableFile(let file, _), .syntaxError(let file, _, _, _),
            .unknownKey(let file, _, _, _), .wrongType(let file, _, _, _, _), .invalidValue(let file, _, _, _),
            .missingKey(let file, _, _, _), .unknownUser(let file, _, _, _):
            return file
        }
    }

    /// The dotted key the error is about, if it is about one.
    public var key: String? {
        switch self {
        case .fileNotFound, .unreadableFile, .syntaxError:
            return nil
        case .unknownKey(_, let key, _, _), .wrongType(_, let key, _, _, _), .invalidValue(_, let key, _, _),
            .missingKey(_, let key, _, _), .unknownUser(_, let key, _, _):
            return key
        }
    }

    /// The 1-based line the error is about, when known.
    public var line: Int? {
        switch self {
        case .fileNotFound, .unreadableFile:
            return nil
        case .syntaxError(_, let line, _, _):
            return line
        case .unknownKey(_, _, let line, _), .wrongType(_, _, let line, _, _), .invalidValue(_, _, let line, _),
            .missingKey(_, _, let line, _), .unknownUser(_, _, let line, _):
            return line
        }
    }

    /// What went wrong and what to do about it, in one line.
    public var message: String {
        switch self {
        case .fileNotFound(let file):
            return "\(file): configuration file not found; check the path given to --config, "
                + "or omit --config to use the default configuration"
        case .unreadableFile(let file, let reason):
            return "\(file): cannot read configuration file: \(reason)"
        case .syntaxError(let file, let line, let column, let reason):
            return "\(file):\(line):\(column): invalid TOML: \(reason)"
        case .unknownKey(_, let key, _, let knownKeys):
            return "\(location)unknown key `\(key)`; known keys here: \(knownKeys.joined(separator: ", "))"
        case .wrongType(_, let key, _, let expected, let found):
            return "\(location)`\(key)` must be \(expected), not \(found)"
        case .invalidValue(_, let key, _, let reason):
            return "\(location)`\(key)` \(reason)"
        case .missingKey(_, let key, _, let example):
            return "\(location)`\(key)` is required; add a line such as: \(example)"
        case .unknownUser(_, let key, _, let name):
            return "\(location)`\(key)`: there is no user named \"\(name)\" on this system; "
                + "use an existing user name or a numeric uid"
        }
    }

    /// `file:line: ` or `file: `, the prefix of a message about a key.
    private var location: String {
        if let line { "\(file):\(line): " } else { "\(file): " }
    }
}

extension ConfigurationError: CustomStringConvertible {
    public var description: String { message }
}

extension ConfigurationError: LocalizedError {
    public var errorDescription: String? { message }
}
