import PhotolibLocations
import TOMLKit

/// Typed values: each setting read as the type it must have, an error naming its key and line otherwise.
extension ConfigurationFile {
    func checkKeys(of table: TOMLTable, in section: SettingKey.Table, known: [String]) throws(ConfigurationError) {
        for key in table.keys.sorted() where !known.contains(key) {
            let unknown = SettingKey(section, key)
            throw .unknownKey(file: path, key: unknown.dotted, line: locator.line(of: unknown), knownKeys: known)
        }
    }

    func table(at key: SettingKey, in table: TOMLTable) throws(ConfigurationError) -> TOMLTable? {
        guard let value = table[key.key] else { return nil }
        guard let subtable = value.table else {
            throw wrongType(at: key, expected: "a table ([\(key.key)])", found: value.type)
        }
        return subtable
    }

    func string(at key: SettingKey, in table: TOMLTable) throws(ConfigurationError) -> String? {
        guard let value = table[key.key] else { return nil }
        guard let string = value.string else { throw wrongType(at: key, expected: "a string", found: value.type) }
        return string
    }

    func integer(at key: SettingKey, in table: TOMLTable) throws(ConfigurationError) -> Int? {
        guard let value = table[key.key] else { return nil }
        guard let integer = value.int else { throw wrongType(at: key, expected: "an integer", found: value.type) }
        return integer
    }

    func bool(at key: SettingKey, in table: TOMLTable) throws(ConfigurationError) -> Bool? {
        guard let value = table[key.key] else { return nil }
        guard let bool = value.bool else {
            throw wrongType(at: key, expected: "a boolean (true or false)", found: value.type)
        }
        return bool
    }

    /// A path setting: a non-empty string, with `~` expanded and made absolute against the file's directory.
    func path(at key: SettingKey, in table: TOMLTable) throws(ConfigurationError) -> String? {
        guard let raw = try string(at: key, in: table) else { return nil }
        guard !raw.isEmpty else { throw invalidValue(at: key, "is empty; give a path or remove the key") }
        return Path.resolve(raw, relativeTo: directory, home: home)
    }

    func wrongType(at key: SettingKey, expected: String, found: TOMLType) -> ConfigurationError {
        .wrongType(
            file: path, key: key.dotted, line: locator.line(of: key), expected: expected, found: found.withArticle)
    }

    func invalidValue(at key: SettingKey, _ reason: String) -> ConfigurationError {
        .invalidValue(file: path, key: key.dotted, line: locator.line(of: key), reason: reason)
    }
}

extension TOMLType {
    /// The type's name with an article, for messages: "a string", "an integer".
    fileprivate var withArticle: String {
        switch self {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .int: "an integer"
        case .double: "a floating-point number"
        case .bool: "a boolean"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }
}
