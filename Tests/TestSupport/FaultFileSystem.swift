import Foundation
import Glibc

/// A folder served through faultfs (`Tests/FaultFileSystem/`), a FUSE file system whose faults a test turns on and
/// off: reads that fail with EIO or wait, every change refused with EROFS (as when the kernel turns a failing disk read-only),
/// and the whole disk gone (unplugged: every call fails) and back. The files live in a folder of their own, kept
/// while the disk is away. Unmounted when released. Needs root and /dev/fuse: check ``canMount`` first.
public final class FaultFileSystem: @unchecked Sendable {
    // @unchecked: `server` is only replaced by unplug/plugBack, which tests call from one task.
    /// Where the files are seen, through faultfs.
    public let path: String
    private let backing: String
    private var server: Process?

    public static var canMount: Bool { geteuid() == 0 && FileManager.default.fileExists(atPath: "/dev/fuse") }

    /// Mounts faultfs at `path` (created if needed), over a new empty folder.
    public init(at path: String) throws {
        self.path = path
        backing = FileManager.default.temporaryDirectory.appendingPathComponent("photolibd-faultfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: backing, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try mount()
    }

    deinit {
        server?.terminate()
        _ = try? runTool("/usr/bin/umount", ["-l", path], checked: false)
        try? FileManager.default.removeItem(atPath: backing)
    }

    /// From now on, reads of files whose path contains `text` fail with EIO; nil: reads work again.
    public func failReads(ofPathsContaining text: String?) {
        control(text.map { "eio-\($0)" } ?? "eio-off")
    }

    /// From now on, reads of files whose path contains `text` (no slash: it is looked up as a name) wait, as on a
    /// disk that stopped answering; nil: the waiting reads go on, and reads no longer wait.
    public func holdReads(ofPathsContaining text: String?) {
        precondition(text?.contains("/") != true, "a control name cannot hold a slash")
        control(text.map { "hold-\($0)" } ?? "hold-off")
    }

    /// Refuses every change with EROFS, files already open included, or takes changes again.
    public func setReadOnly(_ isReadOnly: Bool) {
        control(isReadOnly ? "readonly-on" : "readonly-off")
    }

    /// The disk goes away: every call on the folder fails (ENOTCONN), as with a pulled USB disk or a lost share.
    public func unplug() {
        guard let server else { return }
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        self.server = nil
    }

    /// The disk comes back at the same place, with the files it had.
    public func plugBack() throws {
        _ = try runTool("/usr/bin/umount", ["-l", path], checked: false)
        try mount()
    }

    private func mount() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.tool())
        process.arguments = [backing, path, "-f"]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        server = process
        let mounted = (0..<200).contains { _ in
            if (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8))?.contains(" \(path) fuse") == true { return true }
            usleep(25_000)
            return false
        }
        guard mounted else { throw DaemonError("faultfs did not mount \(path)") }
    }

    private func control(_ name: String) {
        var info = stat()
        _ = stat(path + "/.faultfs-" + name, &info)
    }

    private static func tool() throws -> String {
        let flags = try runTool("/usr/bin/pkg-config", ["--cflags", "--libs", "fuse3"]).output
            .split(whereSeparator: \.isWhitespace).map(String.init)
        return try builtTestTool("faultfs", from: ["FaultFileSystem/faultfs.c", "FaultFileSystem/control.c"], flags: flags)
    }
}
