import ArgumentParser
import PhotoLibrary

struct AlbumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album",
        abstract: "Create, rename and delete albums, add, remove and reorder their assets, and file them in folders.",
        subcommands: [
            Create.self, Add.self, Remove.self, MoveAssets.self, RenameCollection<AlbumKind>.self,
            DeleteCollections<AlbumKind>.self, MoveCollection<AlbumKind>.self,
        ]
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
        static let configuration = CommandConfiguration(abstract: "Add assets to the end of an album.")

        @OptionGroup var connection: ConnectionOptions

        @Argument(help: ArgumentHelp("The album: its id, the start of its id, or its title.", valueName: "album"))
        var album: String

        @OptionGroup var selection: AssetSelection

        func run() async throws {
            let library = try await connection.connect()
            let target = try await References(library: library).collection(album, kinds: [.album])
            let added = try await selection.resolve(in: library) { "Add \($0) to \(target.describedWithArticle)?" }
            var changes = PhotoLibrary.ChangeBuilder()
            changes.addAssets(added.map(\.id), to: target.id)
            _ = try await library.performChanges(changes)
            for asset in added { Console.print("added \(asset.summary) to \(target.describedWithArticle)") }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take assets out of an album; they stay in the library.")

        @OptionGroup var connection: ConnectionOptions

        @Argument(help: ArgumentHelp("The album: its id, the start of its id, or its title.", valueName: "album"))
        var album: String

        @OptionGroup var selection: AssetSelection

        func run() async throws {
            let library = try await connection.connect()
            let target = try await References(library: library).collection(album, kinds: [.album])
            let members = Set(
                try await library.fetchAllAssets(
                    matching: AssetQuery(
                        collection: target.id, includeHidden: true,
                        includeTrashed: true)
                ).assets.map(\.id))
            let removed = try await selection.resolve(in: library, within: target.id) {
                "Take \($0) out of \(target.describedWithArticle)?"
            }
            if let stranger = removed.first(where: { !members.contains($0.id) }) {
                throw CommandFailure("\(stranger.summary) is not in \(target.describedWithArticle); nothing removed")
            }
            var changes = PhotoLibrary.ChangeBuilder()
            changes.removeAssets(removed.map(\.id), from: target.id)
            _ = try await library.performChanges(changes)
            for asset in removed { Console.print("removed \(asset.summary) from \(target.describedWithArticle)") }
        }
    }

    struct MoveAssets: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move-assets",
            abstract: "Reorder an album: move assets so that they stand together from a place on.",
            discussion: "The places are those 'photolib assets --album ALBUM' lists, from 0.")

        @OptionGroup var connection: ConnectionOptions

        @Argument(help: ArgumentHelp("The album: its id, the start of its id, or its title.", valueName: "album"))
        var album: String

        @Argument(help: ArgumentHelp("The assets to move, in the order they are to stand.", valueName: "asset-id"))
        var assets: [String]

        @Option(help: ArgumentHelp("The place the first of them takes, from 0.", valueName: "index"))
        var to: Int

        func validate() throws {
            if to < 0 { throw ValidationError("--to takes a place from 0") }
        }

        func run() async throws {
            let library = try await connection.connect()
            let references = References(library: library)
            let target = try await references.collection(album, kinds: [.album])
            let shown = try await library.fetchAllAssets(matching: AssetQuery(collection: target.id)).assets.map(\.id)
            let moved = try await references.assets(assets)
            if let stranger = moved.first(where: { !shown.contains($0.id) }) {
                throw CommandFailure(
                    "\(stranger.summary) is not shown in \(target.describedWithArticle) (not in it, or hidden)")
            }
            guard to + moved.count <= shown.count else {
                throw CommandFailure(
                    "\(target.describedWithArticle) shows \(Display.count(shown.count, "asset")): moving \(moved.count) "
                        + "can start at place \(shown.count - moved.count) at most")
            }
            // One move per asset, in the order given (a move of several keeps their current order), in one change.
            var changes = PhotoLibrary.ChangeBuilder()
            var order = shown
            for (offset, asset) in moved.enumerated() {
                let from = order.firstIndex(of: asset.id)!
                changes.moveAssets(at: [from], to: to + offset, in: target.id)
                order.insert(order.remove(at: from), at: to + offset)
            }
            _ = try await library.performChanges(changes)
            for (offset, asset) in moved.enumerated() {
                Console.print("moved \(asset.summary) to place \(to + offset)")
            }
        }
    }
}

/// The title of a new album or folder, and the folder to create it in.
struct NewCollectionOptions: ParsableArguments {
    @Argument(help: "Its title.")
    var title: String

    @Option(
        name: .customLong("in"),
        help: ArgumentHelp(
            "Create it inside this folder (id, start of an id, or title).",
            valueName: "folder"))
    var parent: String?

    /// Creates the album or folder and prints its id; says so when another one has the same title.
    func create(_ kind: CollectionKind, connection: ConnectionOptions) async throws {
        let library = try await connection.connect()
        var parent: String?
        if let folder = self.parent {
            parent = try await References(library: library).collection(folder, kinds: [.folder]).id
        }
        var changes = PhotoLibrary.ChangeBuilder()
        let placeholder =
            kind == .folder
            ? changes.createFolder(title: title, in: parent) : changes.createAlbum(title: title, in: parent)
        guard let id = try await library.performChanges(changes).created[placeholder] else {
            throw CommandFailure("photolibd did not report the new \(kind.rawValue)'s id")
        }
        Console.print(id)
        try await SameTitle.note(title, of: id, in: library)
    }
}

/// The note a command leaves when an album or folder shares its title with others: allowed (as in PhotoKit), but
/// the title no longer names one of them.
enum SameTitle {
    static func note(_ title: String, of id: String, in library: PhotoLibrary) async throws {
        let titled = CollectionQuery(
            predicate: "title == \(PredicateText.quoted(title)) AND kind IN {'album', 'folder'}")
        let others = try await library.fetchAllCollections(matching: titled).collections.filter { $0.id != id }
        guard !others.isEmpty else { return }
        Console.printError(
            "note: \(others.count + 1) albums and folders are titled '\(title)' now ("
                + ([id] + others.map(\.id)).joined(separator: ", ") + "): name each by its id\n")
    }
}
