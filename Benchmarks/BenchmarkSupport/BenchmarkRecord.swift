import Foundation

/// Figures a benchmark hands to `Benchmarks/report.sh`: when `BENCHMARK_RECORD` names a file, each call appends
/// one JSON object per line to it; otherwise the calls do nothing and the benchmark only prints.
public enum BenchmarkRecord {
    /// Which way is better for a figure.
    public enum Better: String, Sendable { case lower, higher }

    /// How a figure is set against its peer's: ours ÷ theirs, or ours − theirs (for targets such as "+ 10 ms").
    public enum Comparison: String, Sendable { case ratio, difference }

    /// One figure beside its peer's on the same input, and the target it has.
    public static func figure(_ name: String, ours: Double, peer: Double?, peerName: String?, unit: String,
                              better: Better = .lower, comparison: Comparison = .ratio, target: String) {
        append(["kind": "figure", "name": name, "ours": ours, "peer": peer ?? NSNull(), "peerName": peerName ?? NSNull(),
                "unit": unit, "better": better.rawValue, "comparison": comparison.rawValue, "target": target])
    }

    /// Every sample of a measured distribution (latencies), for a distribution plot.
    public static func samples(_ name: String, _ values: [Double], unit: String) {
        append(["kind": "samples", "name": name, "values": values, "unit": unit])
    }

    /// One point of a cost measured at several sizes (assets or files), for a plot against size.
    public static func scaling(_ name: String, size: Int, value: Double, unit: String) {
        append(["kind": "scaling", "name": name, "size": size, "value": value, "unit": unit])
    }

    private static func append(_ object: [String: Any]) {
        guard let path = ProcessInfo.processInfo.environment["BENCHMARK_RECORD"],
              var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        line.append(UInt8(ascii: "\n"))
        guard let file = FileHandle(forWritingAtPath: path) ?? {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }() else { return }
        defer { try? file.close() }
        _ = try? file.seekToEnd()
        try? file.write(contentsOf: line)
    }
}
