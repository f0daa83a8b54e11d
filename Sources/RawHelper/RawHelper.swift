// Reads camera RAW files with LibRaw for photolibd, in a process of its own so that a fault of the decoder on a
// hostile file ends this process and not the daemon.
//
//     photolibd-raw info FILE MAX_PIXELS              what the file holds, as JSON, once its sensor data was read
//     photolibd-raw preview FILE MAX_PIXELS OUTPUT    writes the new file OUTPUT: the embedded preview, upright
//                                                     (exit status 3 when the file has none)
//     photolibd-raw image FILE MAX_PIXELS LONG_SIDE OUTPUT [decode]
//                                                     writes the new file OUTPUT: the image upright, its long side
//                                                     at least LONG_SIDE pixels when the file allows: a JPEG
//                                                     preview, or (always with `decode`) a decoded TIFF
//     photolibd-raw serve                             runs those commands one after another, as the daemon does:
//                                                     each line on standard input a JSON array of one command's
//                                                     words, each answered by a line of JSON (RawHelperReply),
//                                                     until the end of input
import CMalloc
import Foundation
import Imaging
import ToolProcess

/// The `photolibd-raw` program.
public enum RawHelper {
    /// Carries out the command this process was started with, or serves commands with `serve`; then exits.
    public static func main() -> Never {
        if CommandLine.arguments.dropFirst() == ["serve"] {
            serve()
        }
        do {
            let output = try perform(Array(CommandLine.arguments.dropFirst()))
            FileHandle.standardOutput.write(output)
            exit(0)
        } catch {
            if let reason = error.reason { FileHandle.standardError.write(Data((reason + "\n").utf8)) }
            exit(error.status)
        }
    }
}

/// Why a command was not carried out, with the exit status (and reply status) that says so.
struct Refusal: Error {
    static let failed: Int32 = 1, usage: Int32 = 2
    var status: Int32
    var reason: String?
}

/// Carries out one command; returns what it writes to standard output.
func perform(_ arguments: [String]) throws(Refusal) -> Data {
    guard arguments.count >= 3, let maximumPixels = Int(arguments[2]),
          (arguments[0] == "info" && arguments.count == 3) || (arguments[0] == "preview" && arguments.count == 4)
            || (arguments[0] == "image" && arguments.count >= 5 && Int(arguments[3]) != nil
                && (arguments.count == 5 || arguments[5...] == ["decode"]))
    else {
        throw Refusal(status: Refusal.usage, reason: "usage: photolibd-raw info FILE MAX_PIXELS | preview FILE MAX_PIXELS"
            + " OUTPUT | image FILE MAX_PIXELS LONG_SIDE OUTPUT [decode] | serve")
    }
    do {
        let file = try LibRawFile(path: arguments[1], maximumPixels: maximumPixels)
        switch arguments[0] {
        case "info":
            try file.checkSensorData()
            return try JSONEncoder().encode(file.info)
        case "preview":
            guard file.hasPreview else { throw Refusal(status: RawHelperReply.noPreview, reason: nil) }
            let preview = try file.preview()
            try writeFile(arguments[3]) { write in preview.withUnsafeBytes(write) }
        default:
            try writeFile(arguments[4]) { write throws(ImagingError) in
                try file.writeUprightImage(minimumLongSide: Int(arguments[3])!, allowsPreview: arguments.count == 5, to: write)
            }
        }
        return Data()
    } catch let refusal as Refusal {
        throw refusal
    } catch {
        throw Refusal(status: Refusal.failed, reason: "\(error)")
    }
}

/// Creates the file at `path`, which must not exist yet, and fills it with what `body` writes; a failed write
/// (a full disk) is a refusal.
func writeFile(_ path: String,
               _ body: ((UnsafeRawBufferPointer) -> Void) throws(ImagingError) -> Void) throws(Refusal) {
    let output = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard output >= 0 else { throw Refusal(status: Refusal.failed, reason: "cannot create \(path): \(String(cString: strerror(errno)))") }
    defer { close(output) }
    var failure: Int32 = 0
    do {
        try body { bytes in
            errno = 0
            if failure == 0, !writeAll(bytes, to: output) { failure = errno == 0 ? ENOSPC : errno }
        }
    } catch {
        throw Refusal(status: Refusal.failed, reason: "\(error)")
    }
    guard failure == 0 else { throw Refusal(status: Refusal.failed, reason: "cannot write \(path): \(String(cString: strerror(failure)))") }
}

/// Answers commands from standard input until it ends, then exits.
func serve() -> Never {
    var input = LineReader(descriptor: 0)
    while let line = input.nextLine() {
        let reply: RawHelperReply
        do {
            let arguments = try JSONDecoder().decode([String].self, from: line)
            reply = RawHelperReply(status: 0, output: String(decoding: try perform(arguments), as: UTF8.self))
        } catch let refusal as Refusal {
            reply = RawHelperReply(status: refusal.status, error: refusal.reason)
        } catch {
            reply = RawHelperReply(status: Refusal.usage, error: "a command is a JSON array of strings: \(error)")
        }
        guard var encoded = try? JSONEncoder().encode(reply) else { exit(1) }
        encoded.append(UInt8(ascii: "\n"))
        guard encoded.withUnsafeBytes({ writeAll($0, to: 1) }) else { exit(0) }
        // A decode leaves hundreds of megabytes freed but mapped: give them back while waiting for the next command.
        malloc_trim(0)
    }
    exit(0)
}

/// Writes all of `bytes` to `descriptor`; false when a write fails (errno says why, unless nothing was written).
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    var written = 0
    while written < bytes.count {
        let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        written += count
    }
    return true
}
