import Foundation
import Testing
import TestSupport

/// The `photolib` tool against a real daemon.
@Suite(.serialized)
struct CommandLineTests {
    private func photolib(_ daemon: DaemonProcess, _ arguments: [String], checked: Bool = true) throws -> ToolResult {
        try runTool(DaemonProcess.productsDirectory + "/photolib", ["--socket", daemon.socketPath] + arguments, checked: checked)
    }

    @Test func aTourImportsListsFavoritesAndFilesIntoAnAlbum() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let photos = try TemporaryDirectory()
        let first = try ImageFixtures.image(at: photos.file("first.jpg"), width: 64, height: 48,
                                            exif: ["-DateTimeOriginal=2020:05:06 07:08:09", "-OffsetTimeOriginal=+02:00"])
        let second = try ImageFixtures.image(at: photos.file("second.png"), width: 32, height: 32)

        let imported = try photolib(daemon, ["import", "--progress", first, second])
        #expect(imported.output.contains("imported 2"))
        #expect(imported.output.contains("progress 2/2"))

        let listed = try photolib(daemon, ["assets", "--json"])
        let assets = try listed.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(assets.count == 2)
        let firstAsset = try #require(assets.first { $0["originalFilename"] as? String == "first.jpg" })
        let id = try #require(firstAsset["id"] as? String)
        #expect(firstAsset["creationDate"] as? String == "2020-05-06T07:08:09+02:00")

        let table = try photolib(daemon, ["assets"])
        #expect(table.output.contains("64x48") && table.output.contains("first.jpg"))

        _ = try photolib(daemon, ["favorite", id])
        let album = try photolib(daemon, ["album", "create", "Holidays"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try photolib(daemon, ["album", "add", album, id])
        let inAlbum = try photolib(daemon, ["assets", "--json", "--album", album]).output
        #expect(inAlbum.contains(id) && inAlbum.contains("\"isFavorite\":true"))
        let albums = try photolib(daemon, ["albums"]).output
        #expect(albums.contains("Holidays") && albums.contains("Favorites"))
        let status = try photolib(daemon, ["status"]).output
        #expect(status.contains("authorized"))
    }

    @Test func watchPrintsChangesAsTheyHappen() async throws {
        let library = try await PopulatedDaemon.make(photoCount: 1)
        let output = try TemporaryDirectory()
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: DaemonProcess.productsDirectory + "/photolib")
        watch.arguments = ["--socket", library.daemon.socketPath, "watch", "--json"]
        _ = FileManager.default.createFile(atPath: output.file("watch.log"), contents: nil)
        watch.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output.file("watch.log")))
        try watch.run()
        defer { watch.terminate() }
        func printed() -> String { (try? String(contentsOfFile: output.file("watch.log"), encoding: .utf8)) ?? "" }
        try await eventually { printed().contains("\n") }
        let token = try await library.change { $0.setFavorite(true, for: [library.assetIds[0]]) }.token
        try await eventually { printed().contains(token) }
        #expect(printed().contains(token))
        #expect(printed().contains(library.assetIds[0]))
    }

    @Test func aMissingDaemonGetsAClearMessage() throws {
        let nowhere = try TemporaryDirectory()
        let result = try runTool(DaemonProcess.productsDirectory + "/photolib",
                                 ["--socket", nowhere.file("socket"), "assets"], checked: false)
        #expect(result.status == 1)
        #expect(result.errors.contains("photolibd is not running"))
        #expect(!result.errors.contains("Fatal error"))
    }
}
