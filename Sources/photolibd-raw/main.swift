// Reads one camera RAW file with LibRaw for photolibd, which runs this helper for each RAW file it reads so that
// a fault of the decoder on a hostile file ends this process and not the daemon.
//
//     photolibd-raw info FILE MAX_PIXELS              what the file holds, as JSON, once its sensor data was read
//     photolibd-raw preview FILE MAX_PIXELS OUTPUT    writes the new file OUTPUT: the embedded preview, upright
//                                                     (exit status 3 when the file has none)
//     photolibd-raw image FILE MAX_PIXELS LONG_SIDE OUTPUT [decode]
//                                                     writes the new file OUTPUT: the image upright, its long side
//                                                     at least LONG_SIDE pixels when the file allows: a JPEG
//                                                     preview, or (always with `decode`) a decoded TIFF
import Foundation
import Imaging

let arguments = CommandLine.arguments
guard arguments.count >= 4, let maximumPixels = Int(arguments[3]),
      (arguments[1] == "info" && arguments.count == 4) || (arguments[1] == "preview" && arguments.count == 5)
        || (arguments[1] == "image" && arguments.count >= 6 && Int(arguments[4]) != nil
            && (arguments.count == 6 || arguments[6...] == ["decode"]))
else {
    FileHandle.standardError.write(Data(("usage: photolibd-raw info FILE MAX_PIXELS | preview FILE MAX_PIXELS OUTPUT"
        + " | image FILE MAX_PIXELS LONG_SIDE OUTPUT [decode]\n").utf8))
    exit(2)
}
do {
    let file = try LibRawFile(path: arguments[2], maximumPixels: maximumPixels)
    switch arguments[1] {
    case "info":
        try file.checkSensorData()
        FileHandle.standardOutput.write(try JSONEncoder().encode(file.info))
    case "preview":
        guard file.hasPreview else { exit(3) }
        let preview = try file.preview()
        let output = createOutput(arguments[4])
        preview.withUnsafeBytes { writeAll($0, to: output) }
        close(output)
    default:
        let output = createOutput(arguments[5])
        try file.writeUprightImage(minimumLongSide: Int(arguments[4])!, allowsPreview: arguments.count == 6) { bytes in
            writeAll(bytes, to: output)
        }
        close(output)
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}

/// Creates the output file, which must not exist yet; a failure ends the helper, saying why.
func createOutput(_ path: String) -> Int32 {
    let output = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard output >= 0 else {
        FileHandle.standardError.write(Data("cannot create \(path): \(String(cString: strerror(errno)))\n".utf8))
        exit(1)
    }
    return output
}

/// Writes all of `bytes` to `descriptor`, unbuffered; a failed write (a full disk) ends the helper.
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
    var written = 0
    while written < bytes.count {
        let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { exit(1) }
        written += count
    }
}
