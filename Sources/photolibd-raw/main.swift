// Reads one camera RAW file with LibRaw for photolibd, which runs this helper for each RAW file it reads so that
// a fault of the decoder on a hostile file ends this process and not the daemon.
//
//     photolibd-raw info FILE MAX_PIXELS              what the file holds, as JSON, once its sensor data was read
//     photolibd-raw preview FILE MAX_PIXELS           the embedded preview, upright (exit status 3 when none)
//     photolibd-raw image FILE MAX_PIXELS LONG_SIDE [decode]
//                                                     the image upright, its long side at least LONG_SIDE pixels
//                                                     when the file allows: a JPEG preview, or (always with
//                                                     `decode`) a decoded TIFF
import Foundation
import Imaging

let arguments = CommandLine.arguments
guard arguments.count >= 4, let maximumPixels = Int(arguments[3]),
      ["info", "preview"].contains(arguments[1])
        || (arguments[1] == "image" && Int(arguments[4]) != nil && (arguments.count == 5 || arguments[5...] == ["decode"]))
else {
    FileHandle.standardError.write(Data("usage: photolibd-raw info|preview FILE MAX_PIXELS | image FILE MAX_PIXELS LONG_SIDE [decode]\n".utf8))
    exit(2)
}
do {
    let file = try LibRawFile(path: arguments[2], maximumPixels: maximumPixels)
    switch arguments[1] {
    case "info":
        try file.checkSensorData()
        FileHandle.standardOutput.write(try JSONEncoder().encode(file.info))
    case "preview":
        guard file.info.previewWidth != nil else { exit(3) }
        FileHandle.standardOutput.write(Data(try file.preview()))
    default:
        try file.writeUprightImage(minimumLongSide: Int(arguments[4])!, allowsPreview: arguments.count == 5, to: writeToStandardOutput)
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}

/// Writes all of `bytes` to standard output, unbuffered; a reader that went away ends the helper.
func writeToStandardOutput(_ bytes: UnsafeRawBufferPointer) {
    var written = 0
    while written < bytes.count {
        let count = write(STDOUT_FILENO, bytes.baseAddress! + written, bytes.count - written)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { exit(1) }
        written += count
    }
}
