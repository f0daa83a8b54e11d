import Foundation
import Glibc
import Synchronization

/// The C test tools under `Tests/` (faultfs, clockshift), built with cc once per test process beside the other
/// products: `sources` are paths under `Tests/`, `flags` go to cc after them. Returns the built file's path.
func builtTestTool(_ name: String, from sources: [String], flags: [String]) throws -> String {
    try builtTools.withLock { built in
        if let path = built[name] { return path }
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        let output = DaemonProcess.productsDirectory + "/" + name
        let partial = output + ".\(getpid())"
        try runTool("/usr/bin/cc", ["-O2", "-o", partial] + sources.map { tests + "/" + $0 } + flags)
        guard rename(partial, output) == 0 else { throw DaemonError("cannot install \(output)") }
        built[name] = output
        return output
    }
}

private let builtTools = Mutex<[String: String]>([:])

/// Writes `text` as a new executable file at `path`, through a descriptor closed on exec: a process another test
/// starts meanwhile must not keep the file open for writing, or running it fails with ETXTBSY (Foundation's writes
/// leave their descriptors inheritable).
public func writeExecutable(_ text: String, to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw DaemonError("cannot create \(path): errno \(errno)") }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    guard write(descriptor, bytes, bytes.count) == bytes.count else { throw DaemonError("cannot write \(path)") }
}
