import ArgumentParser
import PhotoLibrary

struct AssetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assets",
        abstract: "List assets, oldest first, or as --where and --sort say."
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

    @Option(name: .customLong("where"), help: ArgumentHelp(
        "Only assets matching this NSPredicate-format predicate, e.g. 'isFavorite == YES AND pixelWidth > 3000'.",
        valueName: "predicate"))
    var predicate: String?

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Sort by this key, descending with a leading '-' (repeat for ties), e.g. -creationDate.", valueName: "key"))
    var sort: [String] = []

    @Flag(help: "Include hidden assets.")
    var includeHidden = false

    @Flag(help: "Include assets in Recently Deleted.")
    var includeTrashed = false

    @Flag(help: "List every frame of a burst, not only its representative.")
    var allBurstFrames = false

    func run() async throws {
        let library = try await connection.connect()
        let sortDescriptors = sort.map { key in
            key.hasPrefix("-") ? SortDescriptor(key: String(key.dropFirst()), ascending: false)
                : SortDescriptor(key: key.hasPrefix("+") ? String(key.dropFirst()) : key)
        }
        let query = AssetQuery(collection: album, mediaTypes: media.map { [$0] }, predicate: predicate,
                               sort: sortDescriptors.isEmpty ? nil : sortDescriptors, includeHidden: includeHidden,
                               includeTrashed: includeTrashed, includeAllBurstAssets: allBurstFrames, limit: limit)
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
