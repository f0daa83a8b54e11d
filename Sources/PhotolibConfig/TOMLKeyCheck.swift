/// Finds the mistakes toml++ (under TOMLKit) does not report but asserts on, which aborts the daemon: a character
/// where a key or value must start that cannot start one (`[émages]`, `[[# title`, `source = [}`, an escape
/// character), and any character outside printable ASCII beyond strings and comments. Each was found by fuzzing
/// the config loader.
///
/// A small lexer, not a parser: it skips strings and comments, follows array and inline-table brackets in values,
/// and checks each place where TOML expects a key (the start of a line, inside a table header, after a dot in a
/// dotted key, after `{` or `,` in an inline table) or a value (after `=`, after `[` or `,` in an array). What it
/// lets through, toml++ reports as a syntax error.
///
/// It also bounds nesting, which toml++ and the tables it builds follow by recursion: arrays and inline tables (toml++
/// stops at 256 levels itself), and the parts of a dotted key or table header (each a table in a table, unbounded).
struct TOMLKeyCheck {
    /// How deep values and keys may nest; the configuration itself needs two levels.
    static let maximumDepth = 64

    /// The first mistake: its 1-based line and column, and what is wrong there.
    struct Mistake: Equatable {
        var line: Int
        var column: Int
        var reason: String
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    static func firstMistake(in text: String) -> Mistake? {
        var check = TOMLKeyCheck(scalars: Array(text.unicodeScalars))
        return check.run()
    }

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    /// What the scan is inside of.
    private enum Context { case array, inlineTable }

    private mutating func run() -> Mistake? {
        var contexts: [Context] = []
        var expectsKey = true  // at the start of a line, outside values
        var inKey = false, inHeader = false
        var expectsValue = false
        var keyParts = 1
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                if expectsValue, contexts.last != .array { return mistake(Self.badValueStart) }
                if expectsKey, inHeader || inKey || contexts.last == .inlineTable { return mistake(Self.badKeyStart) }
                newLine()
                keyParts = 1
                if contexts.isEmpty { (expectsKey, inKey, inHeader) = (true, false, false) }
                continue
            }
            if scalar == "\r", index + 1 == scalars.count || scalars[index + 1] != "\n" {
                return mistake("a carriage return belongs only before a line feed")
            }
            if scalar == " " || scalar == "\t" || scalar == "\r" {
                index += 1
                continue
            }
            if scalar == "#" {
                // A comment may end a line, but not stand where a header, dotted or inline-table key goes on.
                if expectsKey, inHeader || inKey || !contexts.isEmpty { return mistake(Self.badKeyStart) }
                if expectsValue, contexts.last != .array { return mistake(Self.badValueStart) }
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
                continue
            }
            guard (0x20..<0x7F).contains(scalar.value) else {
                return mistake("a character outside printable ASCII belongs only in a quoted string or a comment")
            }
            if expectsValue {
                expectsValue = false
                if contexts.last == .array, scalar == "]" {
                    contexts.removeLast()
                    index += 1
                    continue
                }
                guard Self.startsValue(scalar) else {
                    return mistake(Self.badValueStart)
                }
            }
            if expectsKey {
                expectsKey = false
                if contexts.isEmpty, !inHeader, scalar == "[" {
                    index += index + 1 < scalars.count && scalars[index + 1] == "[" ? 2 : 1
                    (inHeader, expectsKey) = (true, true)
                    continue
                }
                if contexts.last == .inlineTable, scalar == "}" {
                    contexts.removeLast()
                    continue
                }
                guard Self.startsKey(scalar) else {
                    return mistake(Self.badKeyStart)
                }
                inKey = true
            }
            switch scalar {
            case "\"", "'":
                skipString()
                continue
            case "." where inKey || inHeader:
                keyParts += 1
                guard keyParts <= Self.maximumDepth else {
                    return mistake("a dotted key nested deeper than \(Self.maximumDepth) levels")
                }
                expectsKey = true
            case "=" where inKey:
                (inKey, keyParts) = (false, 1)
                expectsValue = true
            case "[" where !inKey && !inHeader, "{" where !inKey && !inHeader:
                guard contexts.count < Self.maximumDepth else {
                    return mistake("arrays and inline tables nested deeper than \(Self.maximumDepth) levels")
                }
                if scalar == "[" {
                    contexts.append(.array)
                    expectsValue = true
                } else {
                    contexts.append(.inlineTable)
                    expectsKey = true
                }
            case "," where contexts.last == .inlineTable:
                expectsKey = true
            case "," where contexts.last == .array:
                expectsValue = true
            case "]" where contexts.last == .array, "}" where contexts.last == .inlineTable:
                contexts.removeLast()
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// Letters, digits, `-` and `_` start bare keys; quotes start quoted ones.
    private static func startsKey(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", "_", "\"", "'": true
        default: false
        }
    }

    static let badKeyStart = "a key must start with a letter, a digit, '-', '_' or a quote"
    static let badValueStart = "a value must be a string, number, boolean, date, array or inline table"

    /// Quotes, brackets, signs, digits, and the letters of `true`, `false`, `inf` and `nan`.
    private static func startsValue(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "0"..."9", "+", "-", "\"", "'", "[", "{", "t", "f", "i", "n": true
        default: false
        }
    }

    private func mistake(_ reason: String) -> Mistake {
        Mistake(line: line, column: index - lineStart + 1, reason: reason)
    }

    private mutating func newLine() {
        index += 1
        line += 1
        lineStart = index
    }

    /// Moves past the string that starts at `index`, of any of TOML's four kinds, counting its lines.
    private mutating func skipString() {
        let quote = scalars[index]
        let isMultiline = index + 2 < scalars.count && scalars[index + 1] == quote && scalars[index + 2] == quote
        let delimiterLength = isMultiline ? 3 : 1
        index += delimiterLength
        while index < scalars.count {
            let scalar = scalars[index]
            if quote == "\"", scalar == "\\" {
                index += 1
                if index < scalars.count, scalars[index] == "\n" { newLine() } else { index += 1 }
            } else if scalar == quote,
                (0..<delimiterLength).allSatisfy({ index + $0 < scalars.count && scalars[index + $0] == quote })
            {
                index += delimiterLength
                return
            } else if scalar == "\n" {
                if !isMultiline { return }  // toml++ reports the unterminated string
                newLine()
            } else {
                index += 1
            }
        }
    }
}
