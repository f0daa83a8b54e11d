import FuzzSupport
@testable import Imaging

func readExif(_ input: UnsafeRawBufferPointer) {
    guard let block = ExifBlock(Array(input)) else { return }
    _ = block.dateTimeOriginal
    _ = block.gpsTimestamp
    _ = block.location
    _ = block.camera
}

@main
struct FuzzExif {
    /// Feeds each input as an EXIF block, every value photolibd takes from one read out of it.
    static func main() throws {
        try FuzzTarget.run(readExif)
    }
}
