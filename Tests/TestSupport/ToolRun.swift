import Foundation

/// What a finished command printed and returned.
public struct ToolResult: Sendable {
    public var status: Int32
    public var output: String
    public var errors: String
}

/// A command that exited unsuccessfully.
public struct ToolFailure: Error, CustomStringConvertible {
    public let command: String
    public let result: ToolResult
    public var description: String { "\(command) exited \(result.status): \(result.errors)\(result.output)" }
}

/// Runs `executable` to completion with no input; its output goes through files so large output cannot block it.
@discardableResult
public func runTool(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    checked: Bool = true) throws -> ToolResult {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outputURL = scratch.appendingPathComponent("out"), errorsURL = scratch.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outputURL)
    process.standardError = try FileHandle(forWritingTo: errorsURL)
    try process.run()
    process.waitUntilExit()
    let result = ToolResult(status: process.terminationStatus,
                            output: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
                            errors: (try? String(contentsOf: errorsURL, encoding: .utf8)) ?? "")
    if checked, result.status != 0 {
        throw ToolFailure(command: ([executable] + arguments).joined(separator: " "), result: result)
    }
    return result
}

/// A temporary directory, removed when released.
public final class TemporaryDirectory: @unchecked Sendable {
    // @unchecked: immutable after init.
    public let path: String

    public init(prefix: String = "photolibd-test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }
}

/// Makes test images with the real `vips` and `exiftool` tools.
public enum ImageFixtures {
    /// Writes a `width`×`height` image (format from `path`'s extension, no metadata), then the EXIF tags
    /// `exiftool` writes for `exif` (e.g. `["-Orientation#=6", "-DateTimeOriginal=2024:01:31 10:15:00"]`).
    @discardableResult
    public static func image(at path: String, width: Int = 120, height: Int = 80, exif: [String] = [],
                             byteOrder: String = "MM") throws -> String {
        let source = path + ".source.v"
        try runTool("/usr/bin/vips", ["gaussnoise", source, "\(width)", "\(height)"])
        defer { try? FileManager.default.removeItem(atPath: source) }
        try runTool("/usr/bin/vips", ["copy", source, path + "[strip]"])
        if !exif.isEmpty {
            try runTool("/usr/bin/exiftool", ["-q", "-overwrite_original", "-ExifByteOrder=\(byteOrder)"] + exif + [path])
        }
        return path
    }
}

/// A connected Unix stream socket's descriptor; the caller closes it.
public func connectUnixStream(to path: String) throws -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8.prefix($0.count - 1))) }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        throw SocketConnectFailure(path: path, reason: reason)
    }
    return descriptor
}

/// A Unix socket that could not be connected to.
public struct SocketConnectFailure: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot connect to \(path): \(reason)" }
}
