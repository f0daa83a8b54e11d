import Foundation
import Glibc

/// Unbuffered writes to standard output and standard error, so lines appear as soon as they are written.
///
/// When the reader has gone (`photolib assets | head -2`), the command ends as every Unix tool does: quietly,
/// killed by SIGPIPE, which the process otherwise ignores for its socket.
enum Console {
    /// Writes one line to standard output.
    static func print(_ line: String) {
        write(Data((line + "\n").utf8), to: STDOUT_FILENO)
    }

    /// Writes text to standard error as is.
    static func printError(_ text: String) {
        write(Data(text.utf8), to: STDERR_FILENO)
    }

    /// Writes a value as one line of JSON with sorted keys.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        write(try encoder.encode(value) + Data("\n".utf8), to: STDOUT_FILENO)
    }

    /// Writes all of `data`; a closed pipe ends the process with SIGPIPE, other failures drop the rest.
    private static func write(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    if errno == EPIPE {
                        signal(SIGPIPE, SIG_DFL)
                        raise(SIGPIPE)
                    }
                    return
                }
            }
        }
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
