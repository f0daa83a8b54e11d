import ArgumentParser
import PhotoLibrary

struct AlbumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Create albums and add assets to them.",
        subcommands: [Create.self, Add.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an album and print its id.")

        @OptionGroup var connection: ConnectionOptions

        @Argument(help: "The album's title.")
        var title: String

        @Option(name: .customLong("in"), help: ArgumentHelp("Create it inside this folder.", valueName: "folder-id"))
        var folder: String?

        func run() async throws {
            let library = try await connection.connect()
            var changes = PhotoLibrary.ChangeBuilder()
            let album = changes.createAlbum(title: title, in: folder)
            guard let albumId = try await library.performChanges(changes).created[album] else {
                throw CommandFailure("photolibd did not report the new album's id")
            }
            Console.print(albumId)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add assets to an album.")

        @OptionGroup var connection: ConnectionOptions

        @Argument(help: ArgumentHelp("The album.", valueName: "album-id"))
        var album: String

        @Argument(help: ArgumentHelp("The assets to add.", valueName: "asset-id"))
        var assets: [String]

        func run() async throws {
            let library = try await connection.connect()
            var changes = PhotoLibrary.ChangeBuilder()
            changes.addAssets(assets, to: album)
            _ = try await library.performChanges(changes)
        }
    }
}
