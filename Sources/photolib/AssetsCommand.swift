import ArgumentParser
import PhotoLibrary

struct AssetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assets",
        abstract: "List assets, oldest first."
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print each asset as one line of JSON, as the daemon sends it.")
    var json = false

    @Option(help: ArgumentHelp("Only the assets of this album, smart album or moment.", valueName: "id"))
    var album: String?

    @Option(help: "Only assets of this type: image, video or audio.")
    var media: MediaType?

    @Option(help: "List at most this many assets.")
    var limit: Int?

    @Flag(help: "Include hidden assets.")
    var includeHidden = false

    func run() async throws {
        let library = try await connection.connect()
        let query = AssetQuery(collection: album, mediaTypes: media.map { [$0] }, includeHidden: includeHidden, limit: limit)
        let assets = try await library.fetchAllAssets(matching: query).assets
        if json {
            for asset in assets { try Console.printJSON(asset) }
            return
        }
        var table = TextTable(header: ["ID", "TYPE", "SIZE", "CREATED", "FAV", "FILENAME"])
        for asset in assets {
            table.append([
                asset.id,
                asset.mediaType.rawValue,
                asset.pixelWidth > 0 ? "\(asset.pixelWidth)x\(asset.pixelHeight)" : "-",
                asset.creationDate?.rfc3339 ?? "-",
                asset.isFavorite ? "★" : "",
                asset.originalFilename,
            ])
        }
        table.print()
    }
}
