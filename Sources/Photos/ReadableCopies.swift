import Foundation
import Glibc
import PhotoLibrary

/// Copies of the daemon's files for a program that may not open them, where a PhotoKit API hands out a URL to
/// open (`requestAVAsset`, `PHContentEditingInput.fullSizeImageURL`): in this user's temporary folder.
enum ReadableCopies {
    /// `path` when this process can read it, else a copy of it kept under `name` (reused while it has the same size).
    static func readable(_ path: String, name: String, cancellation: TransferCancellation? = nil) throws -> String {
        if FileManager.default.isReadableFile(atPath: path) { return path }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photolibd-\(getuid())-copies").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let copy = "\(directory)/\(name).\((path as NSString).pathExtension)"
        let transfers = LibraryClient.shared.transfers
        let size = try transfers.fileSize(path)
        if let kept = try? FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int, kept == size { return copy }
        try? FileManager.default.removeItem(atPath: copy)
        try transfers.copy(path, to: copy, cancellation: cancellation)
        return copy
    }
}
