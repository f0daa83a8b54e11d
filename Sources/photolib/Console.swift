import Foundation

/// Unbuffered writes to standard output and standard error, so lines appear as soon as they are written.
enum Console {
    /// Writes one line to standard output.
    static func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes text to standard error as is.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Writes a value as one line of JSON with sorted keys.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
    }
}

/// Rows of text printed as left-aligned columns under a header; the last column is not padded.
struct TextTable {
    let header: [String]
    private var rows: [[String]] = []

    init(header: [String]) {
        self.header = header
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// Prints the header and the rows to standard output.
    func print() {
        let lines = [header] + rows
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        for line in lines {
            let cells = line.indices.map { column in
                column == line.count - 1
                    ? line[column] : line[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            Console.print(cells.joined(separator: "  "))
        }
    }
}

/// A command's failure, printed as its message.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
