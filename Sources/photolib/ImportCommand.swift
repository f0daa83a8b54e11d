import ArgumentParser
import Foundation
import PhotoLibrary

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import files into the library; exits with 1 if any file failed."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The files to import.", valueName: "path"))
    var paths: [String]

    @Option(help: "copy (the default): copy into the library; move: move into it; reference: index in place.")
    var mode: ImportMode?

    @Option(help: ArgumentHelp("Add the imported assets to this album.", valueName: "id"))
    var album: String?

    func run() async throws {
        let library = try await connection.connect()
        let absolutePaths = paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let showsProgressInPlace = isatty(STDERR_FILENO) == 1
        let result = try await library.importFiles(absolutePaths, mode: mode, album: album) { progress in
            let counter = "[\(progress.processed)/\(progress.total)]"
            Console.printError(showsProgressInPlace ? "\r" + Self.bar(progress) + " " + counter : counter + "\n")
        }
        if showsProgressInPlace { Console.printError("\n") }
        var table = TextTable(header: ["STATUS", "ASSET", "PATH"])
        for file in result.files {
            table.append([file.status.rawValue, file.assetId ?? "-", file.path + (file.error.map { ": \($0)" } ?? "")])
        }
        table.print()
        if result.hasFailures { throw ExitCode.failure }
    }

    /// A 30-character bar of how much of the import is done, e.g. `[#########.....................]`.
    static func bar(_ progress: ImportProgress) -> String {
        let width = 30
        let done = progress.total == 0 ? width : width * progress.processed / progress.total
        return "[" + String(repeating: "#", count: done) + String(repeating: ".", count: width - done) + "]"
    }
}
