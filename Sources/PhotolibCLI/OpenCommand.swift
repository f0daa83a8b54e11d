import ArgumentParser
import Foundation
import PhotoLibrary

struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Show assets in the desktop's viewer (xdg-open): the current version, edit included.",
        discussion: "--original opens the file as it was imported instead."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The assets to open (ids or unique starts of ids).", valueName: "asset-id"))
    var assets: [String]

    @Flag(help: "Open the original file, not the edit.")
    var original = false

    func run() async throws {
        let library = try await connection.connect()
        for asset in try await References(library: library).assets(assets) {
            let file = try await library.requestImageData(for: asset.id, version: original ? .original : .current)
            try Desktop.open(file.path)
            Console.print("opened \(asset.summary): \(file.path)")
        }
        await library.close()
    }
}

/// Hands files and addresses to the desktop's preferred application, as `xdg-open` does for every desktop.
enum Desktop {
    static func open(_ target: String) throws {
        guard let opener = Executable.find("xdg-open") else {
            throw CommandFailure("cannot open \(target): xdg-open is not installed (Debian's xdg-utils package has it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [target]
        do {
            try process.run()
        } catch {
            throw CommandFailure("cannot run xdg-open: \(OutputFile.reason(error))")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure("xdg-open could not open \(target) (it exited with \(process.terminationStatus))")
        }
    }
}

/// Programs found on `$PATH`.
enum Executable {
    /// The first executable file named `name` in the folders of `$PATH`.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
