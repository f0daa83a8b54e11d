import CompactJSON
import NIOCore
import Synchronization

/// Reads a reply whose parameters lead with an array (`JSONArrayLedObject`) as its parts arrive: each element as
/// soon as it is whole, the members after the array once the reply is complete.
///
/// Elements are read where the parts lie; only the bytes that one part leaves unread are copied, to be joined with
/// the start of the next. A reply of any other shape (an error, another order of members) and one that does not
/// read cleanly this way is read whole at the end, by `IncomingReply(frame:)`, so the outcome is always the one
/// that reading it whole gives.
///
/// Parts are appended on the connection's event loop, as they arrive; the caller finishes after the last.
final class ArrayLedReplyReader<Parameters: JSONArrayLedObject & Decodable>: Sendable {
    private let reading = Mutex(Reading())

    func append(_ part: ByteBuffer) {
        reading.withLock { $0.append(part) }
    }

    /// The reply, once its last part has been appended.
    func finish() throws(VarlinkConnectionError) -> IncomingReply<Parameters> {
        try reading.withLock { reading throws(VarlinkConnectionError) in try reading.finish() }
    }

    private struct Reading {
        private enum Stage {
            /// Before the array's first element is known to follow.
            case opening
            /// Reading elements.
            case elements
            /// The array has ended: the rest is the members after it.
            case afterArray
            /// The reply is read whole once complete.
            case whole
        }

        /// Every part, for a reply that is read whole in the end.
        private var parts: [ByteBuffer] = []
        /// Bytes received but not read yet: the start of an element cut at the end of a part, or the members after the array.
        private var unread: [UInt8] = []
        private var elements: [Parameters.Element] = []
        /// `elements.count`, kept apart: asked of the generic array, it costs a type lookup for every element.
        private var elementCount = 0
        private var stage = Stage.opening
        /// How many bytes were unread when reading them last gave nothing: they are tried again once they have doubled,
        /// so that an element arriving a few bytes at a time is not read over and over.
        private var unreadAtLastAttempt = 0

        /// The fewest bytes of a part joined to the unread bytes at a time to complete the element they begin.
        private static var joinStep: Int { 4096 }

        /// How a reply that this reader follows begins: up to its array's `[`.
        private static var opening: [UInt8] {
            let key = Parameters.leadingArrayKey
            return Array(#"{"parameters":{""#.utf8) + UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
                + Array(#"":["#.utf8)
        }

        /// Takes the next part of the reply and reads the elements it completes.
        mutating func append(_ part: ByteBuffer) {
            parts.append(part)
            part.withUnsafeReadableBytes { bytes in
                var offset = 0
                // Complete what the previous part left unread, joining this part's bytes to it in steps that double.
                while isReadingElements, !unread.isEmpty, offset < bytes.count {
                    let joined = min(max(Self.joinStep, unread.count), bytes.count - offset), unreadBefore = unread.count
                    unread += UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + joined])
                    offset += joined
                    guard unread.count >= 2 * unreadAtLastAttempt else { continue }
                    let read = unread.withUnsafeBytes { self.read($0) }
                    unreadAtLastAttempt = read == 0 ? unread.count : 0
                    if read >= unreadBefore {
                        offset -= unread.count - read
                        unread = []
                    } else {
                        unread.removeFirst(read)
                    }
                }
                let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
                switch stage {
                case .opening, .elements:
                    let read = unread.isEmpty ? read(rest) : 0
                    unread += UnsafeRawBufferPointer(rebasing: rest[read...])
                case .afterArray:
                    unread += rest
                case .whole:
                    break
                }
            }
        }

        private var isReadingElements: Bool {
            switch stage {
            case .opening, .elements: true
            case .afterArray, .whole: false
            }
        }

        /// Reads what it can of `bytes`, the reply's unread bytes in order; returns how many it read.
        ///
        /// An element is taken only once a byte after it has arrived: a number cut short would read, and the rest of it
        /// would then send the reply to be read whole. One that does not read is tried again with more bytes.
        private mutating func read(_ bytes: UnsafeRawBufferPointer) -> Int {
            var next = 0
            if case .opening = stage {
                let opening = Self.opening
                guard bytes.count >= opening.count else { return 0 }
                guard bytes.starts(with: opening) else {
                    stage = .whole
                    return 0
                }
                stage = .elements
                next = opening.count
            }
            while case .elements = stage {
                var start = Self.skipWhitespace(in: bytes, from: next)
                guard start < bytes.count else { break }
                if bytes[start] == UInt8(ascii: "]") {
                    stage = .afterArray
                    return start + 1
                }
                if elementCount > 0 {
                    guard bytes[start] == UInt8(ascii: ",") else {
                        stage = .whole
                        break
                    }
                    start += 1
                }
                guard let length = try? JSONReader.readLeadingValue(UnsafeRawBufferPointer(rebasing: bytes[start...]), with: {
                    json throws(JSONReadError) in try Parameters.readElement(&json, appendingTo: &elements)
                }).byteCount else { break }
                guard Self.skipWhitespace(in: bytes, from: start + length) < bytes.count else {
                    elements.removeLast()
                    break
                }
                elementCount += 1
                next = start + length
            }
            return next
        }

        private static func skipWhitespace(in bytes: UnsafeRawBufferPointer, from index: Int) -> Int {
            var index = index
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
            return index
        }

        /// The reply, once its last part has been appended.
        func finish() throws(VarlinkConnectionError) -> IncomingReply<Parameters> {
            if case .afterArray = stage, let reply = readMembersAfterArray() {
                return reply
            }
            var whole = ByteBuffer()
            for part in parts { whole.writeImmutableBuffer(part) }
            return try IncomingReply(frame: whole)
        }

        /// The reply from the elements read and the members after the array; nil for an error reply or text that
        /// does not read, which `IncomingReply(frame:)` then reads and explains.
        private func readMembersAfterArray() -> IncomingReply<Parameters>? {
            unread.withUnsafeBytes { bytes in
                try? JSONReader.read(bytes) { json throws(JSONReadError) in
                    let parameters = try Parameters(elements: elements, readingMembersAfterArray: &json)
                    var continues = false, isError = false
                    try json.readRemainingMembers { key, json throws(JSONReadError) in
                        switch key {
                        case "continues": continues = try json.readFlag()
                        case "error": isError = true; try json.skipValue()
                        default: try json.skipValue()
                        }
                    }
                    return isError ? nil : IncomingReply(outcome: .success(parameters), continues: continues)
                } ?? nil
            }
        }
    }
}
