import ArgumentParser
import PhotoLibrary

/// The kind of collection a shared album-or-folder command works on, as `photolib album …` and `photolib folder …`.
protocol CollectionKindChoice {
    static var kind: CollectionKind { get }
}

enum AlbumKind: CollectionKindChoice {
    static var kind: CollectionKind { .album }
}

enum FolderKind: CollectionKindChoice {
    static var kind: CollectionKind { .folder }
}

struct RenameCollection<Kind: CollectionKindChoice>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "rename", abstract: "Give \(Kind.kind.nameWithArticle) a new title.")
    }

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("Its id, the start of its id, or its title.", valueName: Kind.kind.name))
    var collection: String

    @Argument(help: "The new title.")
    var title: String

    func run() async throws {
        let library = try await connection.connect()
        let renamed = try await References(library: library).collection(collection, kinds: [Kind.kind])
        var changes = PhotoLibrary.ChangeBuilder()
        changes.renameCollection(renamed.id, to: title)
        _ = try await library.performChanges(changes)
        Console.print("renamed \(renamed.describedWithArticle) to '\(title)'")
        try await SameTitle.note(title, of: renamed.id, in: library)
    }
}

struct DeleteCollections<Kind: CollectionKindChoice>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "delete",
            abstract: Kind.kind == .folder
                ? "Delete folders with the albums and folders in them; their assets stay in the library."
                : "Delete albums; their assets stay in the library.")
    }

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("Their ids, starts of ids, or titles.", valueName: Kind.kind.name))
    var collections: [String]

    @Flag(name: [.short, .long], help: "Do not ask before deleting a folder that holds albums or folders.")
    var yes = false

    func run() async throws {
        let library = try await connection.connect()
        let references = References(library: library)
        var deleted: [AssetCollection] = []
        for reference in collections { deleted.append(try await references.collection(reference, kinds: [Kind.kind])) }
        var contents = 0
        for folder in deleted where folder.kind == .folder {
            contents += try await library.fetchCollections(matching: CollectionQuery(parent: folder.id), pageSize: 0).count
        }
        if contents > 0, !yes {
            let what = contents == 1 ? "1 album or folder" : "\(contents) albums and folders"
            try Confirmation.ask("Delete \(what) with \(deleted.count == 1 ? "the folder" : "the folders")? (Their assets stay.)",
                                 withoutTerminal: "the folders hold \(what), deleted with them: add --yes to go ahead")
        }
        var changes = PhotoLibrary.ChangeBuilder()
        changes.deleteCollections(deleted.map(\.id))
        _ = try await library.performChanges(changes)
        for collection in deleted { Console.print("deleted \(collection.describedWithArticle)") }
    }
}

struct MoveCollection<Kind: CollectionKindChoice>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "move",
            abstract: "Move \(Kind.kind.nameWithArticle) into a folder or to a place in it, or out to the top level.")
    }

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
            if moved.parentId != parent.id { changes.addChildCollections([moved.id], to: parent.id) }
            if let at {
                let from = siblings.firstIndex { $0.id == moved.id } ?? siblings.count
                changes.moveChildCollections(at: [from], to: at, in: parent.id)
            }
            guard !changes.requests.isEmpty else {
                return Console.print("\(moved.describedWithArticle) is in \(parent.describedWithArticle) already")
            }
            _ = try await library.performChanges(changes)
            Console.print("moved \(moved.describedWithArticle) into \(parent.describedWithArticle)"
                + (at.map { " at place \($0)" } ?? ""))
        } else if let parent = moved.parentId {
            changes.removeChildCollections([moved.id], from: parent)
            _ = try await library.performChanges(changes)
            Console.print("moved \(moved.describedWithArticle) to the top level")
        } else {
            Console.print("\(moved.describedWithArticle) is at the top level already")
        }
    }
}
