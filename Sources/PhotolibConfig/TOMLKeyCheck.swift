/// Finds what TOML allows nowhere but in strings and comments: a character outside printable ASCII (tabs and
/// line ends aside).
///
/// Checked before the text reaches toml++ (through TOMLKit), whose parser asserts, and so aborts the daemon,
/// on such a character where a bare key starts (`[émages]`, an escape character). Outside strings TOML is
/// printable ASCII, so such a character is a syntax error wherever this finds it.
enum TOMLKeyCheck {
    /// The 1-based line and column of the first such character that is not in a string or comment.
    static func firstUnprintableOutsideStrings(_ text: String) -> (line: Int, column: Int)? {
        let scalars = Array(text.unicodeScalars)
        var index = 0, line = 1, lineStart = 0
        func starts(with delimiter: String, at position: Int) -> Bool {
            let pattern = Array(delimiter.unicodeScalars)
            return position + pattern.count <= scalars.count && Array(scalars[position..<position + pattern.count]) == pattern
        }
        /// Moves past a string opened by `delimiter` at `index`, counting its lines.
        func skipString(closedBy delimiter: String, escapes: Bool) {
            index += delimiter.unicodeScalars.count
            while index < scalars.count {
                if escapes, scalars[index] == "\\" {
                    index += 2
                    continue
                }
                if starts(with: delimiter, at: index) {
                    index += delimiter.unicodeScalars.count
                    return
                }
                if scalars[index] == "\n" {
                    line += 1
                    lineStart = index + 1
                }
                index += 1
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\n":
                line += 1
                lineStart = index + 1
                index += 1
            case "#":
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            case "\"":
                starts(with: "\"\"\"", at: index) ? skipString(closedBy: "\"\"\"", escapes: true) : skipString(closedBy: "\"", escapes: true)
            case "'":
                starts(with: "'''", at: index) ? skipString(closedBy: "'''", escapes: false) : skipString(closedBy: "'", escapes: false)
            default:
                let isPrintable = (0x20..<0x7F).contains(scalar.value) || scalar == "\t" || scalar == "\r"
                if !isPrintable { return (line, index - lineStart + 1) }
                index += 1
            }
        }
        return nil
    }
}
