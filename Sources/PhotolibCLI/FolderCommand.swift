import ArgumentParser
import PhotoLibrary

struct FolderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folder",
        abstract: "Create, rename, delete and file folders of albums.",
        subcommands: [Create.self, RenameCollection<FolderKind>.self, DeleteCollections<FolderKind>.self,
                      MoveCollection<FolderKind>.self]
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
