import ArgumentParser
import PhotoLibrary

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the library's changes as they are committed, until interrupted."
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(help: ArgumentHelp("Watch only the assets matching this NSPredicate-format predicate.", valueName: "predicate"))
    var query: String?

    @Flag(help: "Print each change event as one line of JSON, as the daemon sends it.")
    var json = false

    /// The name of the observed query.
    private static let queryName = "library"

    func run() async throws {
        let library = try await connection.connect()
        var held: [String: [String]] = [:]
        for try await event in library.observe(assetQueries: [Self.queryName: AssetQuery(predicate: query)]) {
            if json {
                try Console.printJSON(event)
            } else {
                describe(event, held: held).forEach(Console.print)
            }
            for result in event.results { held[result.name] = result.applied(to: held[result.name] ?? []) }
        }
        throw CommandFailure("photolibd ended the observation")
    }

    /// One line per changed object, then each changed result with its index changes against what was held.
    private func describe(_ event: LibraryChangeEvent, held: [String: [String]]) -> [String] {
        if event.isSnapshot {
            return event.results.map { "\($0.name): \($0.count) assets at \(event.token)" }
        }
        let objects = event.objects.map { object in
            "\(object.kind.rawValue) \(object.id) \(object.change.rawValue)" + (object.contentChanged ? " (content)" : "")
        }
        return objects + event.results.flatMap { result in describe(result, previous: held[result.name] ?? []) }
    }

    /// What happened to one result: a summary line, then one line per removed, inserted, changed or moved asset.
    private func describe(_ result: FetchResultChange, previous: [String]) -> [String] {
        guard result.hasIncrementalChanges == true else { return ["\(result.name): \(result.count) assets, reloaded"] }
        var lines = ["\(result.name): \(result.count) assets"]
        lines += (result.removedIndexes ?? []).map { "  - \(previous.indices.contains($0) ? previous[$0] : "?") (was at \($0))" }
        lines += zip(result.insertedIds ?? [], result.insertedIndexes ?? []).map { "  + \($0) at \($1)" }
        lines += zip(result.changedIds ?? [], result.changedIndexes ?? []).map { "  ~ \($0) at \($1)" }
        lines += (result.moves ?? []).map { "  ↕ \(previous.indices.contains($0.from) ? previous[$0.from] : "?") \($0.from) → \($0.to)" }
        return lines
    }
}
