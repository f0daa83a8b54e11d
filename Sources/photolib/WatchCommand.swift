import ArgumentParser
import PhotoLibrary

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the library's changes as they are committed, until interrupted."
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print each change event as one line of JSON, as the daemon sends it.")
    var json = false

    /// The name of the observed all-assets query.
    private static let queryName = "library"

    func run() async throws {
        let library = try await connection.connect()
        for try await event in library.observe(assetQueries: [Self.queryName: AssetQuery()]) {
            if json {
                try Console.printJSON(event)
            } else {
                describe(event).forEach(Console.print)
            }
        }
        throw CommandFailure("photolibd ended the observation")
    }

    /// One line per changed object, then one per changed result.
    private func describe(_ event: LibraryChangeEvent) -> [String] {
        if event.isSnapshot {
            return event.results.map { "\($0.name): \($0.count) assets at \(event.token)" }
        }
        let objects = event.objects.map { object in
            "\(object.kind.rawValue) \(object.id) \(object.change.rawValue)" + (object.contentChanged ? " (content)" : "")
        }
        return objects + event.results.map { result in "\(result.name): \(result.count) assets, \(describe(result))" }
    }

    /// What happened to one result: its index changes, or that it was sent whole.
    private func describe(_ result: FetchResultChange) -> String {
        guard result.hasIncrementalChanges == true else { return "reloaded" }
        let counts = [
            ("inserted", result.insertedIndexes?.count ?? 0), ("removed", result.removedIndexes?.count ?? 0),
            ("changed", result.changedIndexes?.count ?? 0), ("moved", result.moves?.count ?? 0),
        ]
        let parts = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        return parts.isEmpty ? "unchanged" : parts.joined(separator: ", ")
    }
}
