import ArgumentParser
import Foundation
import PhotoLibrary

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy assets' original files, unchanged, into a folder.",
        discussion: """
            Each file keeps its original name and modification time; a name already taken gets a number: \
            IMG_0001 (1).JPG. The folder is made when it does not exist.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The assets to export (ids or unique starts of ids).", valueName: "asset-id"))
    var assets: [String]

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The folder to write into.", valueName: "folder"))
    var output: String = "."

    func run() async throws {
        try Self.makeFolder(output)
        let library = try await connection.connect()
        for asset in try await References(library: library).assets(assets) {
            let original = try await library.requestImageData(for: asset.id)
            let destination = try freeName(for: original.originalFilename)
            // Through the socket when this user may not open the library's files (the system service's are its own).
            let transfers = library.transfers
            do {
                try await transfers.onThread { () throws(PhotoLibraryError) in try transfers.copy(original.path, to: destination) }
            } catch {
                throw CommandFailure("cannot copy \(original.path) to \(destination): \(error.message)")
            }
            if let modified = try? FileManager.default.attributesOfItem(atPath: original.path)[.modificationDate] {
                try? FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: destination)
            }
            Console.print(destination)
        }
        await library.close()
    }

    /// Makes `folder` (and the folders it is in) unless it is there; a file in its place is refused.
    private static func makeFolder(_ folder: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw CommandFailure("cannot export into \(folder): it is a file, not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot make the folder \(folder): \(OutputFile.reason(error))")
        }
    }

    /// `name` in the output folder, or `name (N)` with the first N free.
    private func freeName(for name: String) throws -> String {
        let stem = (name as NSString).deletingPathExtension, fileExtension = (name as NSString).pathExtension
        for attempt in 0..<10_000 {
            let candidate = attempt == 0 ? name : "\(stem) (\(attempt))" + (fileExtension.isEmpty ? "" : ".\(fileExtension)")
            let path = (output as NSString).appendingPathComponent(candidate)
            if !FileManager.default.fileExists(atPath: path) { return path }
        }
        throw CommandFailure("no free name for \(name) in \(output)")
    }
}
