import ArgumentParser
import Foundation
import PhotoLibrary

struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List, add and remove the import folders the daemon watches.",
        subcommands: [List.self, Add.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the import folders and what each is doing.")

        @OptionGroup var connection: ConnectionOptions

        @Flag(help: "Print one JSON object per source.")
        var json = false

        func run() async throws {
            let library = try await connection.connect()
            let sources = try await library.listSources()
            if json {
                for source in sources { try Console.printJSON(source) }
                return
            }
            var table = TextTable(header: ["MODE", "STATE", "ASSETS", "PATH"])
            for source in sources {
                let offline = source.offlineAssetCount > 0 ? " (\(source.offlineAssetCount) offline)" : ""
                table.append([source.mode.rawValue + (source.recursive ? "" : ", top only"), source.state,
                              "\(source.assetCount)\(offline)", source.path + (source.error.map { ": \($0)" } ?? "")])
            }
            table.print(empty: "no import sources")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Watch a folder from now on (remembered across restarts).")

        @OptionGroup var connection: ConnectionOptions

        @Argument(help: ArgumentHelp("The folder to watch.", valueName: "path"))
        var path: String

        @Option(help: "move: a drop folder emptied into the library; copy: copy files in; reference: index them in place.")
        var mode: ImportMode

        @Flag(inversion: .prefixedNo, help: "Watch subfolders too.")
        var recursive = true

        func run() async throws {
            let library = try await connection.connect()
            let absolutePath = URL(fileURLWithPath: path).standardizedFileURL.path
            try await library.addSource(path: absolutePath, mode: mode, recursive: recursive)
            Console.print("watching \(absolutePath) (\(mode.rawValue))")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop watching a folder added with `sources add`; its assets stay.")

        @OptionGroup var connection: ConnectionOptions

        @Argument(help: ArgumentHelp("The folder to stop watching.", valueName: "path"))
        var path: String

        func run() async throws {
            let library = try await connection.connect()
            let absolutePath = URL(fileURLWithPath: path).standardizedFileURL.path
            try await library.removeSource(path: absolutePath)
            Console.print("stopped watching \(absolutePath)")
        }
    }
}
