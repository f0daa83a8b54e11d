import ArgumentParser
import PhotoLibrary

struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "List smart albums, then albums and folders, with their asset counts."
    )

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let library = try await connection.connect()
        let smartAlbums = try await library.fetchAllCollections(matching: CollectionQuery(kind: .smartAlbum)).collections
        let albums = try await library.fetchAllCollections(matching: CollectionQuery(kind: .album)).collections
        let folders = try await library.fetchAllCollections(matching: CollectionQuery(kind: .folder)).collections
        var table = TextTable(header: ["ID", "KIND", "COUNT", "TITLE"])
        for (collection, depth) in smartAlbums.map({ ($0, 0) }) + UserCollectionTree(folders + albums).depthFirst() {
            table.append([
                collection.id, collection.kind.rawValue, collection.assetCount.map(String.init) ?? "-",
                String(repeating: "  ", count: depth) + collection.title,
            ])
        }
        table.print()
    }
}

/// Albums and folders arranged by `parentId`.
private struct UserCollectionTree {
    private let roots: [AssetCollection]
    private let children: [String: [AssetCollection]]

    init(_ collections: [AssetCollection]) {
        let ids = Set(collections.map(\.id))
        let isNested = { (collection: AssetCollection) in collection.parentId.map(ids.contains) ?? false }
        roots = collections.filter { !isNested($0) }
        children = Dictionary(grouping: collections.filter(isNested)) { $0.parentId ?? "" }
    }

    /// Every collection, each folder followed by its contents, with its depth in the tree.
    func depthFirst() -> [(AssetCollection, Int)] {
        func visit(_ collection: AssetCollection, depth: Int) -> [(AssetCollection, Int)] {
            [(collection, depth)] + (children[collection.id] ?? []).flatMap { visit($0, depth: depth + 1) }
        }
        return roots.flatMap { visit($0, depth: 0) }
    }
}
