import Glibc

/// Puts a folder's entries on disk: the names of the files made, renamed or removed in it, which syncing the files
/// themselves does not.
enum FolderSync {
    /// Syncs `folder`; false when it cannot be opened or synced (`errno` tells why).
    static func sync(_ folder: String) -> Bool {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return fsync(descriptor) == 0
    }
}
