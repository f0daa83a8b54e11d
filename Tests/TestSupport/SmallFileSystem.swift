import Foundation
import Glibc

/// A tmpfs of a few kilobytes mounted on a temporary directory, for tests of a full disk; unmounted when released.
/// Mounting needs root (CAP_SYS_ADMIN): check ``canMount`` first.
public final class SmallFileSystem: @unchecked Sendable {
    // @unchecked: immutable after init.
    public let path: String

    /// Whether this process may mount file systems.
    public static var canMount: Bool { geteuid() == 0 }

    /// Mounts a tmpfs of `bytes` at `path` (created if needed), or at a new temporary directory.
    public init(bytes: Int, at path: String? = nil) throws {
        self.path = path ?? FileManager.default.temporaryDirectory.appendingPathComponent("photolibd-small-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true)
        try runTool("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", self.path])
    }

    deinit {
        _ = try? runTool("/usr/bin/umount", ["-l", path], checked: false)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Fills the remaining space with a new file, so that the next write fails with ENOSPC.
    public func fill() {
        let descriptor = open(path + "/filler-\(UUID().uuidString)", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0, count: 4096)
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // A last partial block.
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) > 0 {}
    }

    /// Remounts the file system read-only (as the kernel does after an error on a real disk) or writable again.
    public func setReadOnly(_ isReadOnly: Bool) throws {
        try runTool("/usr/bin/mount", ["-o", isReadOnly ? "remount,ro" : "remount,rw", path])
    }

    /// Removes the files `fill()` wrote.
    public func empty() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where name.hasPrefix("filler-") {
            try? FileManager.default.removeItem(atPath: path + "/" + name)
        }
    }
}
