import Foundation

/// The top-level `socket` setting of a configuration file, read without a TOML library: clients need this one
/// key, written as `socket = "path"` or `socket = 'path'` before the file's first table.
///
/// Anything else (a value that is not such a string, a file that cannot be read) gives nil, so the client goes
/// on to the next rule; the daemon reads the whole file with its TOML parser and reports errors.
package enum SocketSetting {
    /// The setting resolved as the daemon resolves it: `~` is the home directory, relative paths are relative
    /// to the file's directory.
    package static func read(fromConfigurationFile path: String, home: String) -> String? {
        let absolute = Path.resolve(path, relativeTo: Path.currentDirectory, home: home)
        guard let data = FileManager.default.contents(atPath: absolute), data.count <= 1 << 20,
              let text = String(data: data, encoding: .utf8),
              let socket = value(in: text), !socket.isEmpty
        else { return nil }
        return Path.resolve(socket, relativeTo: Path.directory(of: absolute), home: home)
    }

    /// The string value of the top-level `socket` key in TOML text; nil when there is none.
    package static func value(in text: String) -> String? {
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") { return nil }
            guard line.hasPrefix("socket") else { continue }
            var rest = line.dropFirst("socket".count).drop { $0 == " " || $0 == "\t" }
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            return string(at: rest)
        }
        return nil
    }

    /// A basic (`"…"`, with escapes) or literal (`'…'`) string followed by nothing but a comment.
    private static func string(at text: Substring) -> String? {
        guard let quote = text.first, quote == "\"" || quote == "'" else { return nil }
        var value = "", index = text.index(after: text.startIndex)
        while index < text.endIndex, text[index] != quote {
            if quote == "\"", text[index] == "\\" {
                index = text.index(after: index)
                guard index < text.endIndex else { return nil }
                switch text[index] {
                case "\\": value.append("\\")
                case "\"": value.append("\"")
                case "t": value.append("\t")
                default: return nil
                }
            } else {
                value.append(text[index])
            }
            index = text.index(after: index)
        }
        guard index < text.endIndex else { return nil }
        let after = text[text.index(after: index)...].drop { $0 == " " || $0 == "\t" }
        guard after.isEmpty || after.hasPrefix("#") else { return nil }
        return value
    }
}
