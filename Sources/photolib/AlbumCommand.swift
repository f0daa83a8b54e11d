import ArgumentParser
import PhotoLibrary

struct AlbumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Create albums, add assets to them, and move albums and folders between folders.",
        subcommands: [Create.self, Add.self, Move.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an album and print its id.")

        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var album: NewCollectionOptions

        func run() async throws {
            try await album.create(.album, connection: connection)
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

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move an album or folder into a folder, or out to the top level.")

        @OptionGroup var connection: ConnectionOptions

        @Argument(help: ArgumentHelp("The album or folder to move.", valueName: "collection-id"))
        var collection: String

        @Option(name: .customLong("into"), help: ArgumentHelp("The folder to move it into; without it, the top level.",
                                                               valueName: "folder-id"))
        var folder: String?

        @Option(help: ArgumentHelp("Its place among the folder's contents, from 0 (default: last).", valueName: "index"))
        var at: Int?

        func validate() throws {
            if at != nil, folder == nil { throw ValidationError("--at needs --into: the top level is ordered by date") }
        }

        func run() async throws {
            let library = try await connection.connect()
            guard let moved = try await library.fetchCollections(matching: CollectionQuery(ids: [collection])).collections.first
            else { throw CommandFailure("no album or folder has the id '\(collection)'") }
            var changes = PhotoLibrary.ChangeBuilder()
            if let folder {
                let siblings = try await library.fetchAllCollections(matching: CollectionQuery(parent: folder)).collections
                changes.addChildCollections([collection], to: folder)
                if let at {
                    let from = siblings.firstIndex { $0.id == collection } ?? siblings.count
                    changes.moveChildCollections(at: [from], to: at, in: folder)
                }
            } else if let parent = moved.parentId {
                changes.removeChildCollections([collection], from: parent)
            }
            _ = try await library.performChanges(changes)
        }
    }
}

/// The title of a new album or folder, and the folder to create it in.
struct NewCollectionOptions: ParsableArguments {
    @Argument(help: "Its title.")
    var title: String

    @Option(name: .customLong("in"), help: ArgumentHelp("Create it inside this folder.", valueName: "folder-id"))
    var parent: String?

    /// Creates the album or folder and prints its id.
    func create(_ kind: CollectionKind, connection: ConnectionOptions) async throws {
        let library = try await connection.connect()
        var changes = PhotoLibrary.ChangeBuilder()
        let placeholder = kind == .folder ? changes.createFolder(title: title, in: parent) : changes.createAlbum(title: title, in: parent)
        guard let id = try await library.performChanges(changes).created[placeholder] else {
            throw CommandFailure("photolibd did not report the new \(kind.rawValue)'s id")
        }
        Console.print(id)
    }
}
