import Foundation
import Glibc
import PhotoLibrary

/// Unbuffered writes to standard output and standard error, so lines appear as soon as they are written.
///
/// When the reader has gone (`photolib assets | head -2`), the command ends as every Unix tool does: quietly,
/// killed by SIGPIPE, which the process otherwise ignores for its socket.
enum Console {
    /// The terminal's width in columns ($COLUMNS when set), or nil when standard output is not a terminal.
    static let width: Int? = {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
            return nil
        }
        return Int(size.ws_col)
    }()

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

    /// Writes bytes to standard output as they are.
    static func write(_ data: Data) {
        write(data, to: STDOUT_FILENO)
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
///
/// On a terminal (or with `$COLUMNS` set) a table wider than the screen has its last column shortened in the
/// middle (`IMG_20…0001.JPG`), where long file names and titles go. A table without rows prints `empty` on
/// standard error instead, so that an empty result says so without adding a line to what a pipe reads.
struct TextTable {
    let header: [String]
    private var rows: [[String]] = []

    init(header: [String]) {
        self.header = header
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// Prints the header and the rows to standard output, or `empty` when there are no rows.
    func print(empty: String) {
        guard !rows.isEmpty else { return Console.printError(empty + "\n") }
        let lines = [header] + rows
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        let lastColumnRoom = Console.width.map { width in
            width - widths.dropLast().reduce(0) { $0 + $1 + 2 }
        }
        for line in lines {
            let cells = line.indices.map { column in
                column == line.count - 1
                    ? Self.shortened(line[column], to: lastColumnRoom)
                    : line[column].padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            Console.print(cells.joined(separator: "  "))
        }
    }

    /// `text` cut in the middle to `room` characters (at least 12), with "…" where the cut is.
    static func shortened(_ text: String, to room: Int?) -> String {
        guard let room, text.count > max(room, 12) else { return text }
        let kept = max(room, 12) - 1
        return String(text.prefix(kept - kept / 2)) + "…" + String(text.suffix(kept / 2))
    }
}

/// How the command line writes ids, dates and sizes in tables.
enum Display {
    /// The characters of an id shown in tables; any unique prefix of an id is accepted where one is asked for.
    static let shortIdLength = 8

    /// A UUID's first characters, which name it where an id is asked for; any other id whole, as its start may name
    /// nothing (`moment-2` of `moment-2024-05-01`) or several.
    static func shortId(_ id: String) -> String {
        UUID(uuidString: id) == nil ? id : String(id.prefix(shortIdLength))
    }

    /// The wall-clock time where the date was recorded, to the second: `2024-05-01 14:03:22`.
    static func localTime(_ timestamp: Timestamp?) -> String {
        timestamp.map { wallClock(ofRFC3339: $0.rfc3339) } ?? "-"
    }

    /// The date with its UTC offset, or marked as a time of unknown zone when the source recorded none.
    static func dateWithZone(_ timestamp: Timestamp, source: CreationDateSource?) -> String {
        let text = timestamp.rfc3339
        if let source, source.isFloating { return wallClock(ofRFC3339: text) + ", time zone unknown" }
        return wallClock(ofRFC3339: text) + " " + text.suffix(6)
    }

    /// `2024-05-01 14:03:22` of `2024-05-01T14:03:22.250+02:00`.
    private static func wallClock(ofRFC3339 text: String) -> String {
        String(text.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    /// A location as `48.858400, 2.294500, 35 m`.
    static func location(_ location: Location) -> String {
        String(format: "%.6f, %.6f", location.latitude, location.longitude)
            + (location.altitude.map { String(format: ", %.0f m", $0) } ?? "")
    }

    /// A place by name, as `Paris, Île-de-France, France`; `-` without one.
    static func place(_ place: AssetPlace?) -> String {
        guard let place else { return "-" }
        return ([place.city] + (place.region.map { $0 == place.city ? [] : [$0] } ?? []) + [place.country]).joined(
            separator: ", ")
    }

    /// `1 asset`, `2 assets`, `2 copies` (given `plural`): a count with its noun, plural only when plural.
    static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// A byte count as `ls -h` writes it: `812`, `4.2K`, `2.4M`, `1.1G`.
    static func bytes(_ count: Int64) -> String {
        var value = Double(count)
        for unit in ["", "K", "M", "G", "T"] {
            if value < 1024 || unit == "T" {
                return unit.isEmpty ? "\(count)" : String(format: value < 10 ? "%.1f" : "%.0f", value) + unit
            }
            value /= 1024
        }
        return "\(count)"
    }
}

extension CreationDateSource {
    /// Whether the date is a wall-clock time of unknown zone: EXIF without an offset, or a file name's digits.
    var isFloating: Bool { self == .exifWithoutOffset || self == .xmpWithoutOffset || self == .fileName }
}

/// A command's failure, printed as its message.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
