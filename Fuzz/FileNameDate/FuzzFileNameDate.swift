import FuzzSupport
import PhotoModel

func readFileNameDate(_ input: UnsafeRawBufferPointer) {
    _ = FileNameDate(fileName: String(decoding: input, as: UTF8.self))
}

@main
struct FuzzFileNameDate {
    /// Feeds each input as a file name whose date is read.
    static func main() throws {
        try FuzzTarget.run(readFileNameDate)
    }
}
