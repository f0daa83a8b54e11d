import ArgumentParser
import PhotoLibrary

struct FolderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folder",
        abstract: "Create folders of albums.",
        subcommands: [Create.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a folder and print its id.")

        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var folder: NewCollectionOptions

        func run() async throws {
            try await folder.create(.folder, connection: connection)
        }
    }
}
