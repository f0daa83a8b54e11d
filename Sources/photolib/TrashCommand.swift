import ArgumentParser
import Glibc
import PhotoLibrary

struct TrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "Move assets to Recently Deleted (their albums keep them for a restore), or list what is there."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The assets to delete; none lists Recently Deleted.", valueName: "asset-id"))
    var assets: [String] = []

    @Flag(help: "Delete for good at once instead; asks first unless --yes.")
    var permanently = false

    @Flag(name: [.short, .long], help: "Do not ask before deleting for good.")
    var yes = false

    @Flag(help: "List Recently Deleted as one JSON object per asset.")
    var json = false

    func run() async throws {
        let library = try await connection.connect()
        guard assets.isEmpty else { return try await delete(from: library) }
        let recentlyDeleted = CollectionQuery(subtype: .smartAlbumRecentlyDeleted)
        guard let trash = try await library.fetchCollections(matching: recentlyDeleted).collections.first else {
            throw CommandFailure("photolibd has no Recently Deleted album")
        }
        let trashed = try await library.fetchAllAssets(matching: AssetQuery(collection: trash.id)).assets
        if json {
            for asset in trashed { try Console.printJSON(asset) }
            return
        }
        var table = TextTable(header: ["ID", "TAKEN (LOCAL TIME)", "FILENAME"])
        for asset in trashed {
            table.append([Display.shortId(asset.id), Display.localTime(asset.creationDate), asset.originalFilename])
        }
        table.print(empty: "Recently Deleted is empty")
    }

    private func delete(from library: PhotoLibrary) async throws {
        let found = try await References(library: library).assets(assets)
        if permanently, !yes {
            try Self.confirm("Delete \(found.count == 1 ? "1 asset" : "\(found.count) assets") and their files for good?")
        }
        var changes = PhotoLibrary.ChangeBuilder()
        changes.deleteAssets(found.map(\.id), permanently: permanently)
        _ = try await library.performChanges(changes)
        for asset in found {
            Console.print(permanently ? "deleted \(asset.summary) for good" : "moved \(asset.summary) to Recently Deleted")
        }
    }

    /// Asks `question` on the terminal; anything but yes ends the command. Without a terminal to ask on, refuses.
    private static func confirm(_ question: String) throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw CommandFailure("deleting for good cannot be undone: add --yes to do it without a terminal to ask on")
        }
        Console.printError("\(question) [y/N] ")
        guard let answer = readLine()?.lowercased(), ["y", "yes"].contains(answer) else {
            throw CommandFailure("nothing deleted")
        }
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
        let found = try await References(library: library).assets(assets)
        if let kept = found.first(where: { !$0.isTrashed }) {
            throw CommandFailure("\(kept.summary) is not in Recently Deleted; nothing restored")
        }
        var changes = PhotoLibrary.ChangeBuilder()
        changes.restoreAssets(found.map(\.id))
        _ = try await library.performChanges(changes)
        for asset in found { Console.print("restored \(asset.summary)") }
    }
}
