import Foundation
import Glibc

/// Lines read from a descriptor, one at a time.
public struct LineReader {
    public let descriptor: Int32
    private var buffered: [UInt8] = []

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next line without its newline; nil at the end of input or on a read error.
    public mutating func nextLine() -> Data? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffered.removeSubrange(...newline) }
                return Data(buffered[..<newline])
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffered += chunk[..<count]
        }
    }
}
