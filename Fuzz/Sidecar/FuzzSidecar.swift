import FuzzSupport
import PhotoModel
import XMPAnnotations

func readSidecar(_ input: UnsafeRawBufferPointer) {
    guard let reading = try? SidecarFile.annotations(inSidecarBytes: Array(input)) else { return }
    _ = reading.annotations
}

@main
struct FuzzSidecar {
    /// Feeds each input as an XMP sidecar's bytes, through exiv2 to the annotations photolibd takes from it.
    static func main() throws {
        try FuzzTarget.run(readSidecar)
    }
}
