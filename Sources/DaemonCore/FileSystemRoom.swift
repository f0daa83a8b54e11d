import Glibc

/// What the file system holding a path has room for, as `statvfs` tells it.
struct FileSystemRoom {
    /// The bytes an unprivileged writer may still use.
    let availableBytes: Int64
    /// Whether the file system is mounted read-only.
    let isReadOnly: Bool

    /// The room of the file system holding `path`; nil when it cannot be asked.
    init?(holding path: String) {
        var system = statvfs()
        guard statvfs(path, &system) == 0 else { return nil }
        availableBytes = Int64(system.f_bavail) * Int64(system.f_frsize)
        isReadOnly = system.f_flag & UInt(ST_RDONLY) != 0
    }
}
