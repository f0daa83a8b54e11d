import Glibc

/// Whether a calling user could read a file itself, judged by permission bits along its whole path.
///
/// The daemon may run as root or another user; it imports only what the caller could have opened.
package enum CallerFileAccess {
    package static func canRead(_ path: String, caller: Caller?) -> Bool {
        guard let caller else { return false }
        if caller.uid == 0 { return true }
        if caller.uid == getuid() { return access(path, R_OK) == 0 }
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        let groups = groups(of: caller)
        let components = String(cString: resolved).split(separator: "/")
        var directory = ""
        for component in components.dropLast() {
            directory += "/" + component
            guard permits(directory, uid: caller.uid, groups: groups, bits: (S_IXUSR, S_IXGRP, S_IXOTH)) else {
                return false
            }
        }
        return permits(String(cString: resolved), uid: caller.uid, groups: groups, bits: (S_IRUSR, S_IRGRP, S_IROTH))
    }

    private static func permits(_ path: String, uid: UInt32, groups: Set<UInt32>, bits: (mode_t, mode_t, mode_t))
        -> Bool
    {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        if info.st_uid == uid { return info.st_mode & bits.0 != 0 }
        if groups.contains(info.st_gid) { return info.st_mode & bits.1 != 0 }
        return info.st_mode & bits.2 != 0
    }

    /// The caller's primary group plus the supplementary groups of its user.
    private static func groups(of caller: Caller) -> Set<UInt32> {
        var result: Set<UInt32> = [caller.gid]
        guard let entry = getpwuid(caller.uid), let name = entry.pointee.pw_name else { return result }
        var count: Int32 = 64
        var list = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, caller.gid, &list, &count) == -1 {
            list = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, caller.gid, &list, &count) != -1 else { return result }
        }
        result.formUnion(list.prefix(Int(count)))
        return result
    }
}
