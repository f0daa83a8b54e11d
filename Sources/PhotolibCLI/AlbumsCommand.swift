import ArgumentParser
import PhotoLibrary

struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "List smart albums, then folders and albums as a tree, with their asset counts."
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print each album and folder as one line of JSON, in the same order (a folder's contents follow it).")
    var json = false

    func run() async throws {
        let library = try await connection.connect()
        var listed = try await library.fetchAllCollections(matching: CollectionQuery(kind: .smartAlbum)).collections.map { ($0, 0) }
        let topLevel = try await library.fetchAllCollections(matching: CollectionQuery(topLevelUserCollections: true)).collections
        for collection in topLevel { try await append(collection, depth: 0, to: &listed, from: library) }
        if json {
            for (collection, _) in listed { try Console.printJSON(collection) }
            return
        }
        var table = TextTable(header: ["ID", "KIND", "COUNT", "TITLE"])
        for (collection, depth) in listed {
            table.append([Display.shortId(collection.id), collection.kind.name, collection.assetCount.map(String.init) ?? "-",
                          String(repeating: "  ", count: depth) + collection.title + (collection.kind == .folder ? "/" : "")])
        }
        table.print(empty: "no albums")
    }

    /// Appends `collection` and, for a folder, its contents in their order, one level deeper.
    private func append(_ collection: AssetCollection, depth: Int, to listed: inout [(AssetCollection, Int)],
                        from library: PhotoLibrary) async throws {
        listed.append((collection, depth))
        guard collection.kind == .folder else { return }
        for child in try await library.fetchAllCollections(matching: CollectionQuery(parent: collection.id)).collections {
            try await append(child, depth: depth + 1, to: &listed, from: library)
        }
    }
}
