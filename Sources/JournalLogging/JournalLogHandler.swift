import Foundation
import Glibc
import Logging

/// Writes one line per record to stderr, the same for the daemon and the gallery: under journald (`JOURNAL_STREAM`
/// set) each line starts with the `<N>` syslog priority prefix journald understands (journald adds the time and the
/// program), otherwise with a timestamp, the level and the program, since scripts/run-daemon shows both in one terminal.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let label: String
    private let forJournal: Bool

    public init(label: String, level: Logger.Level, forJournal: Bool) {
        self.label = label
        self.logLevel = level
        self.forJournal = forJournal
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        var line =
            forJournal ? "<\(Self.priority(event.level))>" : "\(Date().ISO8601Format()) \(event.level) \(label): "
        line += event.message.description.replacingOccurrences(of: "\n", with: " ")
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(Self.quoted("\(value)"))"
        }
        Self.writeToStandardError(line + "\n")
    }

    /// Writes `text` to stderr as far as it can: a reader gone away (EPIPE; SIGPIPE is ignored), a full disk
    /// or any other failure loses the line, never the daemon.
    private static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    private static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && !value.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }
        return plain
            ? value
            : "\""
                + value.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// syslog(3) priorities: 7 debug … 2 critical.
    private static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
