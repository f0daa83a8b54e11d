import ArgumentParser
import PhotoLibrary

struct FavoriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorite",
        abstract: "Mark assets as favorites, or unmark them with --off."
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: ArgumentHelp("The assets to mark (ids or unique starts of ids).", valueName: "asset-id"))
    var assets: [String]

    @Flag(help: "Unmark the assets instead.")
    var off = false

    func run() async throws {
        let library = try await connection.connect()
        let found = try await References(library: library).assets(assets)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setFavorite(!off, for: found.map(\.id))
        _ = try await library.performChanges(changes)
        for asset in found { Console.print("\(off ? "unmarked" : "marked") \(asset.summary)") }
    }
}
