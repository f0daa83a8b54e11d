import CVips

/// An owned libvips image, unreferenced when the handle goes away. Used on one thread at a time.
final class VipsImageHandle {
    let pointer: UnsafeMutablePointer<VipsImage>

    init(_ pointer: UnsafeMutablePointer<VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        g_object_unref(pointer)
    }

    var size: PixelSize {
        PixelSize(width: Int(vips_image_get_width(pointer)), height: Int(vips_image_get_height(pointer)))
    }

    var header: VipsHeader { VipsHeader(image: pointer) }

    /// The result of a libvips operation that writes its output image through `out`.
    ///
    /// - Throws: `ImagingError.renderFailed` naming `path`, with libvips' message.
    static func make(
        for path: String, _ operation: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
    ) throws(ImagingError) -> VipsImageHandle {
        var output: UnsafeMutablePointer<VipsImage>?
        guard operation(&output) == 0, let output else {
            throw .renderFailed(path: path, reason: VipsRuntime.takeFailureMessage())
        }
        return VipsImageHandle(output)
    }

    /// This image through one more libvips operation.
    func applying(
        for path: String,
        _ operation: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
    ) throws(ImagingError) -> VipsImageHandle {
        try Self.make(for: path) { output in operation(pointer, output) }
    }
}
