import ArgumentParser
import Foundation
import PhotoLibrary
import PredicateQuery

struct AssetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assets",
        abstract: "List assets, oldest first, or as --where and --sort say.",
        discussion: """
            The table shows the first characters of each id (any unique start of an id is accepted wherever \
            an id is asked for) and the time each photo was taken as the clock showed it where it was taken. \
            --json prints the whole ids and dates with their UTC offsets.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print each asset as one line of JSON, as the daemon sends it.")
    var json = false

    @OptionGroup var filter: AssetFilter

    @Option(help: "List at most this many assets.")
    var limit: Int?

    @Option(
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Sort by this key, descending with a leading '-' (repeat for ties), e.g. -creationDate.", valueName: "key"))
    var sort: [String] = []

    @Flag(help: "List every frame of a burst, not only its representative.")
    var allBurstFrames = false

    /// The keys `--sort` takes: the predicate keys and `id`.
    private static let sortKeys = PredicateSchema(
        Array(PredicateSchema.assets.keys.values) + [PredicateKey("id", .text)])

    func validate() throws {
        for key in sort.map(Self.sortKey) where Self.sortKeys.keys[key] == nil {
            throw ValidationError(Self.sortKeys.unknownKeyProblem(key) + "; the keys are: \(Self.sortKeys.keyList)")
        }
    }

    func run() async throws {
        let library = try await connection.connect()
        var query = try await filter.query(in: library)
        let sortDescriptors = sort.map { SortDescriptor(key: Self.sortKey($0), ascending: !$0.hasPrefix("-")) }
        query.sort = sortDescriptors.isEmpty ? nil : sortDescriptors
        query.includeAllBurstAssets = allBurstFrames
        query.limit = limit
        let assets: [Asset]
        do {
            assets = try await library.fetchAllAssets(matching: query).assets
        } catch {
            throw try await filter.explain(error, in: library)
        }
        if json {
            for asset in assets { try Console.printJSON(asset) }
            return
        }
        // Hidden and trashed rows are marked when the listing mixes them with the rest.
        let showsState = filter.includeHidden || filter.includeTrashed
        var table = TextTable(
            header: ["ID", "TYPE", "PIXELS", "BYTES", "TAKEN (LOCAL TIME)", "FAV"]
                + (showsState ? ["STATE"] : []) + ["FILENAME"])
        for asset in assets {
            let state = [("hidden", asset.isHidden), ("trashed", asset.isTrashed)].filter(\.1).map(\.0).joined(
                separator: ",")
            table.append(
                [
                    Display.shortId(asset.id),
                    asset.mediaType.rawValue,
                    asset.pixelWidth > 0 ? "\(asset.pixelWidth)x\(asset.pixelHeight)" : "-",
                    Display.bytes(asset.fileSize),
                    Display.localTime(asset.creationDate),
                    asset.isFavorite ? "★" : "",
                ] + (showsState ? [state.isEmpty ? "-" : state] : []) + [asset.originalFilename])
        }
        table.print(empty: "no assets match")
    }

    /// A sort argument's key, without its direction sign.
    private static func sortKey(_ argument: String) -> String {
        argument.hasPrefix("-") || argument.hasPrefix("+") ? String(argument.dropFirst()) : argument
    }
}

/// A year, month or day typed on the command line (`2024`, `2024-05`, `2024-05-01`), in the local time zone.
struct CalendarPeriod: ExpressibleByArgument {
    /// The period's first instant.
    let start: Timestamp
    /// The instant just after it.
    let end: Timestamp

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = parts.map { $0! }
        var components = DateComponents(
            year: numbers[0], month: numbers.count > 1 ? numbers[1] : 1,
            day: numbers.count > 2 ? numbers[2] : 1)
        let calendar = Calendar.current
        guard components.isValidDate(in: calendar), numbers[0] >= 1, let first = calendar.date(from: components) else {
            return nil
        }
        components = DateComponents()
        switch numbers.count {
        case 1: components.year = 1
        case 2: components.month = 1
        default: components.day = 1
        }
        guard let next = calendar.date(byAdding: components, to: first) else { return nil }
        start = Self.timestamp(first, in: calendar)
        end = Self.timestamp(next, in: calendar)
    }

    private static func timestamp(_ date: Date, in calendar: Calendar) -> Timestamp {
        Timestamp(
            secondsSince1970: date.timeIntervalSince1970, utcOffsetSeconds: calendar.timeZone.secondsFromGMT(for: date))
    }
}
