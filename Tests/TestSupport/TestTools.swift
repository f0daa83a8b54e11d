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
