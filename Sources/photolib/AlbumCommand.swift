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

        @Argument(help: ArgumentHelp("The album: its id, the start of its id, or its title.", valueName: "album"))
        var album: String

        @Argument(help: ArgumentHelp("The assets to add.", valueName: "asset-id"))
        var assets: [String]

        func run() async throws {
            let library = try await connection.connect()
            let references = References(library: library)
            let target = try await references.collection(album, kinds: [.album])
            let added = try await references.assets(assets)
            var changes = PhotoLibrary.ChangeBuilder()
            changes.addAssets(added.map(\.id), to: target.id)
            _ = try await library.performChanges(changes)
            for asset in added { Console.print("added \(asset.summary) to \(target.describedWithArticle)") }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move an album or folder into a folder, or out to the top level.")

        @OptionGroup var connection: ConnectionOptions

        @Argument(help: ArgumentHelp("The album or folder to move (id, start of an id, or title).", valueName: "collection"))
        var collection: String

        @Option(name: .customLong("into"), help: ArgumentHelp("The folder to move it into; without it, the top level.",
                                                               valueName: "folder"))
        var folder: String?

        @Option(help: ArgumentHelp("Its place among the folder's contents, from 0 (default: last).", valueName: "index"))
        var at: Int?

        func validate() throws {
            if at != nil, folder == nil { throw ValidationError("--at needs --into: the top level is ordered by date") }
        }

        func run() async throws {
            let library = try await connection.connect()
            let references = References(library: library)
            let moved = try await references.collection(collection, kinds: [.album, .folder])
            var changes = PhotoLibrary.ChangeBuilder()
            if let folder {
                let parent = try await references.collection(folder, kinds: [.folder])
                let siblings = try await library.fetchAllCollections(matching: CollectionQuery(parent: parent.id)).collections
                changes.addChildCollections([moved.id], to: parent.id)
                if let at {
                    let from = siblings.firstIndex { $0.id == moved.id } ?? siblings.count
                    changes.moveChildCollections(at: [from], to: at, in: parent.id)
                }
                _ = try await library.performChanges(changes)
                Console.print("moved \(moved.describedWithArticle) into \(parent.describedWithArticle)")
            } else if let parent = moved.parentId {
                changes.removeChildCollections([moved.id], from: parent)
                _ = try await library.performChanges(changes)
                Console.print("moved \(moved.describedWithArticle) to the top level")
            } else {
                Console.print("\(moved.describedWithArticle) is at the top level already")
            }
        }
    }
}

/// The title of a new album or folder, and the folder to create it in.
struct NewCollectionOptions: ParsableArguments {
    @Argument(help: "Its title.")
    var title: String

    @Option(name: .customLong("in"), help: ArgumentHelp("Create it inside this folder (id, start of an id, or title).",
                                                         valueName: "folder"))
    var parent: String?

    /// Creates the album or folder and prints its id.
    func create(_ kind: CollectionKind, connection: ConnectionOptions) async throws {
        let library = try await connection.connect()
        var parent: String?
        if let folder = self.parent { parent = try await References(library: library).collection(folder, kinds: [.folder]).id }
        var changes = PhotoLibrary.ChangeBuilder()
        let placeholder = kind == .folder ? changes.createFolder(title: title, in: parent) : changes.createAlbum(title: title, in: parent)
        guard let id = try await library.performChanges(changes).created[placeholder] else {
            throw CommandFailure("photolibd did not report the new \(kind.rawValue)'s id")
        }
        Console.print(id)
    }
}
