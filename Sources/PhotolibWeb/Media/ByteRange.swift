/// A `Range: bytes=…` request header read against a file's size (RFC 9110 §14): one range, as a player asks.
enum ByteRange: Equatable {
    /// No usable range: the whole file (no header, another unit, or several ranges).
    case whole
    /// The bytes `range` of the file.
    case part(ClosedRange<Int64>)
    /// A range that starts past the end of the file: 416.
    case unsatisfiable

    init(header: String?, fileSize: Int64) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else {
            self = .whole
            return
        }
        let first = bounds[0].isEmpty ? nil : Int64(bounds[0])
        let last = bounds[1].isEmpty ? nil : Int64(bounds[1])
        switch (first, last) {
        case (nil, let suffix?) where !bounds[0].contains(where: { !$0.isNumber }):
            // The last `suffix` bytes.
            guard suffix > 0, fileSize > 0 else {
                self = .unsatisfiable
                return
            }
            self = .part(max(0, fileSize - suffix)...(fileSize - 1))
        case (let start?, let end) where start >= 0:
            guard start < fileSize else {
                self = .unsatisfiable
                return
            }
            let end = min(end ?? fileSize - 1, fileSize - 1)
            self = end >= start ? .part(start...end) : .whole
        default:
            self = .whole
        }
    }
}
