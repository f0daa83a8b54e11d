import ArgumentParser
import PhotoLibrary

struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "List smart albums, then folders and albums as a tree, with their asset counts."
    )

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let library = try await connection.connect()
        let smartAlbums = try await library.fetchAllCollections(matching: CollectionQuery(kind: .smartAlbum)).collections
        var table = TextTable(header: ["ID", "KIND", "COUNT", "TITLE"])
        for album in smartAlbums { table.append(Self.row(album, depth: 0)) }
        let topLevel = try await library.fetchAllCollections(matching: CollectionQuery(topLevelUserCollections: true)).collections
        for collection in topLevel { try await append(collection, depth: 0, to: &table, from: library) }
        table.print()
    }

    /// Appends `collection` and, for a folder, its contents in their order, one level deeper.
    private func append(_ collection: AssetCollection, depth: Int, to table: inout TextTable, from library: PhotoLibrary) async throws {
        table.append(Self.row(collection, depth: depth))
        guard collection.kind == .folder else { return }
        for child in try await library.fetchAllCollections(matching: CollectionQuery(parent: collection.id)).collections {
            try await append(child, depth: depth + 1, to: &table, from: library)
        }
    }

    private static func row(_ collection: AssetCollection, depth: Int) -> [String] {
        [collection.id, collection.kind.rawValue, collection.assetCount.map(String.init) ?? "-",
         String(repeating: "  ", count: depth) + collection.title + (collection.kind == .folder ? "/" : "")]
    }
}
