import Foundation
import ToolProcess

/// Reads camera RAW files through `photolibd-raw` helpers (LibRaw), kept running between reads: a hostile or
/// broken file can crash or stall a helper, which is then killed, never the calling process. Copies share the
/// helpers.
public struct RawImageReader: Sendable {
    /// Files whose sensor has more pixels than this are refused before decoding.
    public var maximumPixels: Int
    /// Seconds a read may take before the helper is killed.
    public var timeLimit: Int
    private let helpers: RawHelperPool

    /// The helper executable.
    public var helper: String { helpers.executable }

    public init(helper: String = RawImageReader.installedHelper, maximumPixels: Int = 200_000_000, timeLimit: Int = 60) {
        self.helpers = RawHelperPool(executable: helper)
        self.maximumPixels = maximumPixels
        self.timeLimit = timeLimit
    }

    /// The helper beside this process's executable (a build folder), else where the package installs it.
    public static var installedHelper: String {
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("photolibd-raw").path
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : "/usr/libexec/photolibd/photolibd-raw"
    }

    /// The file's size, orientation and capture data, once LibRaw read its sensor data whole.
    public func info(ofFileAt path: String) throws(ImagingError) -> RawImageInfo {
        let output = try run(["info", path, String(maximumPixels)], for: path)!
        do {
            return try JSONDecoder().decode(RawImageInfo.self, from: Data(output.utf8))
        } catch {
            throw .unreadable(path: path, reason: "photolibd-raw wrote no description: \(error)")
        }
    }

    /// Calls `body` with a file holding the embedded preview, upright (a JPEG); nil when the file has none. The
    /// file is temporary, as `withUprightImage`'s.
    public func withPreview<Value>(ofFileAt path: String,
                                   _ body: (String) throws(ImagingError) -> Value) throws(ImagingError) -> Value? {
        try withImageFile(["preview", path, String(maximumPixels)], of: path, absentStatus: RawHelperReply.noPreview, body)
    }

    /// Calls `body` with a file holding the image, upright and encoded (JPEG or TIFF), whose long side has at least
    /// `minimumLongSide` pixels when the file has that many: the embedded preview when it is big enough and
    /// `allowsPreview`, else a decode. The file is temporary (a decode of 24 MP is 72 MB: a file, not a pipe and
    /// copies in this process's memory) and removed when `body` returns.
    public func withUprightImage<Value>(ofFileAt path: String, minimumLongSide: Int, allowsPreview: Bool,
                                        _ body: (String) throws(ImagingError) -> Value) throws(ImagingError) -> Value {
        let arguments = ["image", path, String(maximumPixels), String(minimumLongSide)]
        return try withImageFile(arguments, of: path, trailing: allowsPreview ? [] : ["decode"], body)!
    }

    /// Runs the helper with `arguments`, the path of a new temporary file (then `trailing`), and calls `body` with
    /// that file; nil when the helper answers `absentStatus`. The file is removed when `body` returns.
    private func withImageFile<Value>(_ arguments: [String], of path: String, trailing: [String] = [], absentStatus: Int32? = nil,
                                      _ body: (String) throws(ImagingError) -> Value) throws(ImagingError) -> Value? {
        let image = FileManager.default.temporaryDirectory.appendingPathComponent("photolibd-raw-\(UUID().uuidString)").path
        defer { unlink(image) }
        guard try run(arguments + [image] + trailing, for: path, absentStatus: absentStatus) != nil else { return nil }
        return try body(image)
    }

    /// The helper's output; nil when it answers `absentStatus` (what was asked for is not in the file).
    private func run(_ arguments: [String], for path: String, absentStatus: Int32? = nil) throws(ImagingError) -> String? {
        let reply: RawHelperReply
        do {
            reply = try helpers.call(arguments, timeLimit: timeLimit)
        } catch {
            switch error {
            case .cannotStart(let reason):
                throw .libraryUnavailable("cannot run the RAW helper: \(reason)")
            case .timedOut:
                throw .unreadable(path: path, reason: "LibRaw took more than \(timeLimit) s")
            case .ended(let termination):
                let status = termination.map { " (status \($0.status))" } ?? ""
                throw .unreadable(path: path, reason: "the RAW decoder crashed on it\(status)")
            }
        }
        if reply.status == absentStatus { return nil }
        guard reply.status == 0 else { throw .unreadable(path: path, reason: reply.error ?? "LibRaw refused it") }
        return reply.output ?? ""
    }
}
