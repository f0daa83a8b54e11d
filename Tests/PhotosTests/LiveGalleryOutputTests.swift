import Foundation
import Glibc
import Photos
import Testing
import TestSupport

extension PhotosModuleTests {
    /// Redirected to a file and stopped with Ctrl-C, as a person tries it: every line is there as it is printed,
    /// the first listing in order, each photo once, a photo added while it runs shown as inserted.
    @Test func theLiveGalleryExamplePrintsEachPhotoOnceInOrderWhenRedirected() async throws {
        let daemon = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        _ = try PhotosDaemon.importAssets(try PhotosDaemon.photos(3, in: directory, year: 2009))
        let output = directory.file("gallery.txt")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let gallery = Process()
        gallery.executableURL = URL(fileURLWithPath: DaemonProcess.productsDirectory + "/live-gallery")
        gallery.environment = ProcessInfo.processInfo.environment.merging(["PHOTOLIBD_SOCKET": daemon.socketPath]) { $1 }
        gallery.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try gallery.run()
        defer { if gallery.isRunning { kill(gallery.processIdentifier, SIGKILL) } }
        func printed() -> [String] {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        let listed = try await eventually(timeout: .seconds(60)) { printed().contains { $0.hasPrefix("  [2]") } }
        #expect(listed, "nothing reached the file while the gallery ran: \(printed())")
        _ = try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory, year: 2032))
        let inserted = try await eventually(timeout: .seconds(60)) {
            let lines = printed()
            return lines.firstIndex(of: "Inserted at 0:").map { lines.indices.contains($0 + 1) } ?? false
        }
        #expect(inserted, "\(printed())")
        kill(gallery.processIdentifier, SIGINT)
        gallery.waitUntilExit()

        let lines = printed()
        let listing = lines.prefix { !$0.hasPrefix("Inserted") }
        let indexes = listing.compactMap { line -> Int? in
            guard line.hasPrefix("  ["), let end = line.firstIndex(of: "]") else { return nil }
            return Int(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
        #expect(indexes == Array(0..<indexes.count) && indexes.count >= 3, "\(listing)")
        if let more = listing.firstIndex(where: { $0.hasPrefix("… and ") }) { #expect(more == listing.count - 1, "\(listing)") }
        #expect(!lines.contains { $0.contains("degraded") || $0.contains("no thumbnail") }, "\(lines)")
        let insertion = try #require(lines.firstIndex(of: "Inserted at 0:"))
        #expect(lines[insertion + 1].hasPrefix("  [0] 2032-"), "\(lines)")
        #expect(lines.filter { $0.hasPrefix("  [0] 2032-") }.count == 1, "\(lines)")
    }
}
