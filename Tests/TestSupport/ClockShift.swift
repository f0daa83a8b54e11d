import Foundation

/// A wall clock of its own for a daemon, moved as a clock set by hand or by NTP moves (Tests/ClockShift/clockshift.c,
/// preloaded): start the daemon with ``environment``, then ``set(offset:)``. The monotonic clock is left alone.
public final class ClockShift: Sendable {
    private let folder: TemporaryDirectory
    /// What the daemon's environment needs.
    public let environment: [String: String]

    public init() throws {
        folder = try TemporaryDirectory(prefix: "photolibd-clock")
        let library = try builtTestTool("clockshift.so", from: ["ClockShift/clockshift.c"], flags: ["-shared", "-fPIC", "-ldl"])
        environment = ["LD_PRELOAD": library, "CLOCKSHIFT_FILE": folder.file("offset")]
        set(offset: 0)
    }

    /// Moves the wall clock to `offset` seconds from the real time (negative: back); seen within 100 ms.
    public func set(offset: Int) {
        try? "\(offset)\n".write(toFile: folder.file("offset"), atomically: true, encoding: .utf8)
    }
}
