import Glibc

/// Encoded bytes at a stable address: libvips' buffer loaders read them in place while an image made from them
/// lives. Never changed once made, so threads share it.
public final class EncodedBuffer: @unchecked Sendable {
    // @unchecked: its bytes are written while it is made and only read after, and freed with it.
    /// At least one byte long, so that even empty data has an address.
    let bytes: UnsafeMutableRawBufferPointer
    /// The number of bytes of data.
    public let count: Int
    /// Pages of its own, given back to the system when the buffer goes.
    private let isMapped: Bool

    init(_ data: [UInt8]) {
        bytes = .allocate(byteCount: max(data.count, 1), alignment: 16)
        bytes.copyBytes(from: data)
        count = data.count
        isMapped = false
    }

    /// `count` bytes that `fill` writes, in pages of their own: a whole file read into memory leaves nothing
    /// behind in the heap once it is done with.
    public init<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) {
        let length = max(count, 1)
        let pages = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0)
        if let pages, pages != MAP_FAILED {
            bytes = UnsafeMutableRawBufferPointer(start: pages, count: length)
            isMapped = true
        } else {
            bytes = .allocate(byteCount: length, alignment: 16)
            isMapped = false
        }
        self.count = count
        try fill(UnsafeMutableRawBufferPointer(rebasing: bytes[..<count]))
    }

    /// The data.
    public var contents: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[..<count]) }

    deinit {
        if isMapped { munmap(bytes.baseAddress, bytes.count) } else { bytes.deallocate() }
    }
}
