import ArgumentParser
import PhotoLibrary

struct TrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "Move assets to Recently Deleted (their albums keep them for a restore), or list what is there."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The assets to delete; none lists Recently Deleted.", valueName: "asset-id"))
    var assets: [String] = []

    @Flag(help: "Delete for good at once instead.")
    var permanently = false

    func run() async throws {
        let library = try await connection.connect()
        guard assets.isEmpty else {
            var changes = PhotoLibrary.ChangeBuilder()
            changes.deleteAssets(assets, permanently: permanently)
            _ = try await library.performChanges(changes)
            return
        }
        let recentlyDeleted = CollectionQuery(subtype: .smartAlbumRecentlyDeleted)
        guard let trash = try await library.fetchCollections(matching: recentlyDeleted).collections.first else {
            throw CommandFailure("photolibd has no Recently Deleted album")
        }
        var table = TextTable(header: ["ID", "CREATED", "FILENAME"])
        for asset in try await library.fetchAllAssets(matching: AssetQuery(collection: trash.id)).assets {
            table.append([asset.id, asset.creationDate?.rfc3339 ?? "-", asset.originalFilename])
        }
        table.print()
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring assets back from Recently Deleted, into every album they were in."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The assets to restore.", valueName: "asset-id"))
    var assets: [String]

    func run() async throws {
        let library = try await connection.connect()
        var changes = PhotoLibrary.ChangeBuilder()
        changes.restoreAssets(assets)
        _ = try await library.performChanges(changes)
    }
}
