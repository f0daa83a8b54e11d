import ArgumentParser
import PhotoLibrary

struct TrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "Move assets to Recently Deleted (their albums keep them for a restore), or list what is there."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var selection: AssetSelection

    @Flag(help: "Delete for good at once instead; asks first unless --yes.")
    var permanently = false

    @Flag(help: "List Recently Deleted as one JSON object per asset.")
    var json = false

    func run() async throws {
        let library = try await connection.connect()
        guard selection.isEmpty else { return try await delete(from: library) }
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
        let found = try await selection.resolve(in: library, scope: .includingHidden) {
            permanently ? "Delete \($0) and their files for good?" : "Move \($0) to Recently Deleted?"
        }
        if permanently, !selection.yes, selection.predicate == nil {
            let count = Display.count(found.count, "asset")
            try Confirmation.ask(
                "Delete \(count) and their files for good?",
                withoutTerminal: "deleting for good cannot be undone: add --yes to do it without a terminal to ask on")
        }
        var changes = PhotoLibrary.ChangeBuilder()
        changes.deleteAssets(found.map(\.id), permanently: permanently)
        _ = try await library.performChanges(changes)
        for asset in found {
            Console.print(
                permanently ? "deleted \(asset.summary) for good" : "moved \(asset.summary) to Recently Deleted")
        }
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring assets back from Recently Deleted, into every album they were in (--where looks there)."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var selection: AssetSelection

    func run() async throws {
        let library = try await connection.connect()
        let found = try await selection.resolve(in: library, scope: .trash) { "Restore \($0)?" }
        if let kept = found.first(where: { !$0.isTrashed }) {
            throw CommandFailure("\(kept.summary) is not in Recently Deleted; nothing restored")
        }
        var changes = PhotoLibrary.ChangeBuilder()
        changes.restoreAssets(found.map(\.id))
        _ = try await library.performChanges(changes)
        for asset in found { Console.print("restored \(asset.summary)") }
    }
}
