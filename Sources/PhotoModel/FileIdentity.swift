/// What `stat` says about a file, enough to tell an unchanged file from a changed or replaced one without reading it.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Modification time in nanoseconds since 1970.
    public var modificationTime: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modificationTime: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationTime = modificationTime
    }

    /// The modification time in seconds since 1970.
    public var modificationSeconds: Double { Double(modificationTime) / 1e9 }

    /// Whether both name the same file on disk (device and inode), whatever its content.
    public func isSameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode
    }
}
