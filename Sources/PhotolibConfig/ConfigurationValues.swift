import PhotolibLocations
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TOMLKit

/// Typed values: each setting read as the type it must have, an error naming its key and line otherwise.
extension ConfigurationFile {
    // MARK: Typed values

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

    // MARK: Reading

    /// The file's contents as UTF-8 text.
    static func readText(_ path: String) throws(ConfigurationError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .fileNotFound(file: path) }
            throw .unreadableFile(file: path, reason: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .unreadableFile(file: path, reason: String(cString: strerror(code)))
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .unreadableFile(file: path, reason: "the file is not UTF-8 text")
        }
        guard !text.contains("\0") else {
            throw .unreadableFile(file: path, reason: "the file contains a NUL byte")
        }
        return text
    }
}
