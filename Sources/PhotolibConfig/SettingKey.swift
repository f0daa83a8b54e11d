/// Where a key sits in a configuration file: the table it belongs to and its name.
struct SettingKey: Hashable {
    /// The table that holds the key.
    enum Table: Hashable {
        /// The top level of the document.
        case root
        /// A `[name]` table.
        case named(String)
        /// The `index`th `[[name]]` table of an array of tables.
        case element(String, index: Int)
    }

    var table: Table
    var key: String
    /// The position within an array value, for messages about one element.
    var arrayIndex: Int?

    init(_ table: Table, _ key: String, arrayIndex: Int? = nil) {
        self.table = table
        self.key = key
        self.arrayIndex = arrayIndex
    }

    /// The element `index` of this key's array value.
    func element(_ index: Int) -> SettingKey {
        SettingKey(table, key, arrayIndex: index)
    }

    /// The dotted name used in messages: `library`, `trash.retention_days`, `source[1].mode`, `access.users[0]`.
    var dotted: String {
        let suffix = arrayIndex.map { "[\($0)]" } ?? ""
        switch table {
        case .root: return key + suffix
        case .named(let name): return "\(name).\(key)\(suffix)"
        case .element(let name, let index): return "\(name)[\(index)].\(key)\(suffix)"
        }
    }
}

/// Finds the line on which a key is set, by a light scan of the TOML text.
///
/// TOMLKit does not report node positions, so this follows table headers and `key =` lines.
/// It returns nil rather than guess when a key is written in a form it does not follow
/// (inline tables, dotted keys inside another table).
struct KeyLocator {
    private struct Line {
        var number: Int
        var table: SettingKey.Table
        var text: Substring
    }

    private let lines: [Line]

    init(text: String) {
        var lines: [Line] = []
        var table = SettingKey.Table.root
        var arrayCounts: [String: Int] = [:]
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = raw.drop(while: { $0 == " " || $0 == "\t" })
            if text.hasPrefix("[[") {
                let name = Self.headerName(text.dropFirst(2))
                let index = arrayCounts[name, default: 0]
                arrayCounts[name] = index + 1
                table = .element(name, index: index)
            } else if text.hasPrefix("[") {
                table = .named(Self.headerName(text.dropFirst()))
            }
            lines.append(Line(number: offset + 1, table: table, text: text))
        }
        self.lines = lines
    }

    /// The 1-based line that sets `path.key` in `path.table`, or that opens a table of that name.
    func line(of path: SettingKey) -> Int? {
        for line in lines where line.table == path.table && Self.assigns(path.key, line.text) {
            return line.number
        }
        if case .root = path.table {
            for line in lines where line.text.hasPrefix("[") {
                switch line.table {
                case .named(let name) where name == path.key || name.hasPrefix(path.key + "."):
                    return line.number
                case .element(let name, _) where name == path.key || name.hasPrefix(path.key + "."):
                    return line.number
                default:
                    continue
                }
            }
        }
        return nil
    }

    /// The line of the header that opens `table`, for messages about a whole table.
    func line(of table: SettingKey.Table) -> Int? {
        lines.first { $0.table == table && $0.text.hasPrefix("[") }?.number
    }

    /// Whether `text` begins with `key` (bare or quoted) followed by `=` or a dot.
    private static func assigns(_ key: String, _ text: Substring) -> Bool {
        for spelling in [key, "\"\(key)\"", "'\(key)'"] where text.hasPrefix(spelling) {
            let rest = text.dropFirst(spelling.count).drop(while: { $0 == " " || $0 == "\t" })
            if rest.hasPrefix("=") || rest.hasPrefix(".") { return true }
        }
        return false
    }

    private static func headerName(_ text: Substring) -> String {
        let inside = text.prefix { $0 != "]" && $0 != "#" }
        return inside.split(separator: ".")
            .map { $0.trimmingSpaces.trimmingQuotes }
            .joined(separator: ".")
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[start...end]
    }

    fileprivate var trimmingQuotes: String {
        if count >= 2, let first, first == "\"" || first == "'", last == first {
            return String(dropFirst().dropLast())
        }
        return String(self)
    }
}
