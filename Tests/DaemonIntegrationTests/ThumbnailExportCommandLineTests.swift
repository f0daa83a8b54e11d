import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// `photolib thumbnail` and `photolib export` write where they are told: standard output, a file of the format its
/// name says, a folder made for them; and say why not when they cannot.
@Suite(.serialized)
struct ThumbnailExportCommandLineTests {
    private static let photolib = DaemonProcess.productsDirectory + "/photolib"

    private func photolib(_ socket: String, _ arguments: [String]) throws -> ToolResult {
        try runTool(Self.photolib, ["--socket", socket] + arguments, checked: false)
    }

    @Test func thumbnailsGoToStandardOutputTakeTheFormatOfTheirNameAndCropToSize() async throws {
        let library = try await ImageLibrary.start()
        let socket = library.daemon.socketPath
        let photo = try MarkedPhotos.write(at: library.photos.file("wide.jpg"), width: 600, height: 400, orientation: 1)
        let id = try #require(try await library.importByReference([photo]).first)
        let output = try TemporaryDirectory()

        let piped = try runTool(
            "/bin/bash",
            [
                "-c", #""$0" --socket "$1" thumbnail "$2" -o - | vipsheader stdin"#,
                Self.photolib, socket, String(id.prefix(8)),
            ])
        #expect(piped.output.contains("256x171") && piped.output.contains("jpeg"), "\(piped.output)")
        #expect(!FileManager.default.fileExists(atPath: "-"))

        let png = try photolib(socket, ["thumbnail", id, "-o", output.file("thumb.png")])
        #expect(png.status == 0 && png.output.contains("image/png"))
        #expect(try ImageProbe.loader(of: output.file("thumb.png")) == "pngload")
        let converted = try photolib(socket, ["thumbnail", id, "--format", "png", "-o", output.file("named.jpg")])
        #expect(converted.status == 0)
        #expect(try ImageProbe.loader(of: output.file("named.jpg")) == "pngload")
        let unknown = try photolib(socket, ["thumbnail", id, "-o", output.file("thumb.gif")])
        #expect(unknown.status == 64 && unknown.errors.contains("name it .jpg or .png"))

        let square = try photolib(
            socket, ["thumbnail", id, "--size", "256x256", "--crop", "-o", output.file("square.jpg")])
        #expect(square.status == 0)
        #expect(try ImageProbe.size(of: output.file("square.jpg")) == (256, 256))

        let nowhere = try photolib(socket, ["thumbnail", id, "-o", "/nonexistent/dir/x.jpg"])
        #expect(
            nowhere.status == 1
                && nowhere.errors.contains("cannot write /nonexistent/dir/x.jpg: there is no folder /nonexistent/dir"))
        let intoAFile = try photolib(socket, ["export", id, "-o", output.file("square.jpg")])
        #expect(intoAFile.status == 1 && intoAFile.errors.contains("it is a file, not a folder"))
        let madeFolder = try photolib(socket, ["export", id, "-o", output.file("new/folder")])
        #expect(
            madeFolder.status == 0 && FileManager.default.fileExists(atPath: output.file("new/folder/wide.jpg")),
            "\(madeFolder)")

        // The export keeps the file's modification time.
        let longAgo = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: photo)
        let exported = try photolib(socket, ["export", id, "-o", output.path])
        #expect(exported.status == 0)
        let modified =
            try FileManager.default.attributesOfItem(atPath: output.file("wide.jpg"))[.modificationDate] as? Date
        #expect(modified == longAgo)
        try await library.daemon.stop()
    }
}
