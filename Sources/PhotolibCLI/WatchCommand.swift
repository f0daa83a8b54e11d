import ArgumentParser
import Foundation
import PhotoLibrary

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the library's changes as they are committed, until interrupted.",
        discussion: """
            Each line starts with the local time it was seen. When photolibd stops, watch waits for it to come \
            back and first prints what was committed meanwhile.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(
        help: ArgumentHelp("Watch only the assets matching this NSPredicate-format predicate.", valueName: "predicate"))
    var query: String?

    @Flag(help: "Print each change event as one line of JSON, as the daemon sends it.")
    var json = false

    func run() async throws {
        let queryName = query.map { "assets where \($0)" } ?? "all assets"
        var watcher = Watcher(queryName: queryName, json: json)
        var lastToken: String?
        var library = try await connection.connect()
        while true {
            do {
                let titles = try await connection.connect()
                if let lastToken { try await watcher.catchUp(since: lastToken, from: titles) }
                for try await event in library.observe(assetQueries: [queryName: AssetQuery(predicate: query)]) {
                    try await watcher.show(event, titles: titles)
                    lastToken = event.token
                }
                await titles.close()
            } catch let error as PhotoLibraryError
                where [.connectionFailed, .daemonStopping, .daemonNotRunning].contains(error.code)
            {
                Console.printError(Watcher.now() + " photolibd went away (\(error.message)); waiting for it\n")
            }
            await library.close()
            library = try await Self.reconnect(connection)
        }
    }

    /// A new connection, once the daemon answers again.
    private static func reconnect(_ connection: ConnectionOptions) async throws -> PhotoLibrary {
        while true {
            try await Task.sleep(for: .seconds(1))
            do {
                return try await connection.connect()
            } catch let error as PhotoLibraryError
                where error.code == .daemonNotRunning || error.code == .connectionFailed
            {
                continue
            }
        }
    }
}

/// Prints change events: each changed object with a time stamp and, for albums and folders, their titles; then
/// how the watched result changed against what it held.
private struct Watcher {
    let queryName: String
    let json: Bool
    /// The watched result's ids, as the last event left them.
    private var held: [String] = []
    /// Titles of the albums and folders seen, kept to name those that are removed.
    private var titles: [String: String] = [:]

    init(queryName: String, json: Bool) {
        self.queryName = queryName
        self.json = json
    }

    mutating func show(_ event: LibraryChangeEvent, titles library: PhotoLibrary) async throws {
        if json {
            try Console.printJSON(event)
        } else if event.isSnapshot {
            for result in event.results {
                Console.print("\(Self.now()) \(result.name): \(Display.count(result.count, "asset"))")
            }
        } else {
            for object in event.objects {
                let name = try await self.name(
                    object.id, kind: object.kind, removed: object.change == .removed, library: library)
                Console.print(
                    "\(Self.now()) \(name) \(object.change.rawValue)" + (object.contentChanged ? " (content)" : ""))
            }
            for result in event.results { describe(result).forEach(Console.print) }
        }
        for result in event.results { held = result.applied(to: held) }
    }

    /// Prints the transactions committed after `token` while the watch was not connected.
    mutating func catchUp(since token: String, from library: PhotoLibrary) async throws {
        var token = token
        do {
            while true {
                let page = try await library.fetchPersistentChanges(since: token)
                for change in page.changes {
                    if json { try Console.printJSON(change); continue }
                    let lines = [
                        ("asset", change.insertedAssetIds, "inserted"), ("asset", change.updatedAssetIds, "changed"),
                        ("asset", change.deletedAssetIds, "removed"),
                        ("collection", change.insertedCollectionIds, "inserted"),
                        ("collection", change.updatedCollectionIds, "changed"),
                        ("collection", change.deletedCollectionIds, "removed"),
                    ]
                    for (kind, ids, what) in lines {
                        for id in ids {
                            let name = try await self.name(
                                id, kind: kind == "asset" ? .asset : .collection,
                                removed: what == "removed", library: library)
                            Console.print("\(Self.now()) \(name) \(what) (while away)")
                        }
                    }
                }
                token = page.token
                if !page.hasMore { return }
            }
        } catch let error as PhotoLibraryError where error.code == .tokenExpired {
            Console.print(
                "\(Self.now()) photolibd no longer has the history of what changed while away; the result is reloaded")
        }
    }

    /// `asset 3f2a9c1e` or `album 'Summer' (1a2b3c4d)`.
    private mutating func name(_ id: String, kind: ObjectKind, removed: Bool, library: PhotoLibrary) async throws
        -> String
    {
        guard kind == .collection else { return "asset \(Display.shortId(id))" }
        if !removed,
            let collection = try await library.fetchCollections(matching: CollectionQuery(ids: [id])).collections.first
        {
            titles[id] = "\(collection.kind.name) '\(collection.title)'"
        }
        return "\(titles[id] ?? "collection") (\(Display.shortId(id)))"
    }

    /// What happened to the watched result: a summary line, then one line per removed, inserted, changed or moved asset.
    private func describe(_ result: FetchResultChange) -> [String] {
        let summary = "\(Self.now()) \(result.name): \(Display.count(result.count, "asset"))"
        guard result.hasIncrementalChanges == true else { return [summary + ", reloaded"] }
        func id(at index: Int) -> String { held.indices.contains(index) ? Display.shortId(held[index]) : "?" }
        var lines = [summary]
        lines += (result.removedIndexes ?? []).map { "  - \(id(at: $0)) (was at \($0))" }
        lines += zip(result.insertedIds ?? [], result.insertedIndexes ?? []).map {
            "  + \(Display.shortId($0)) at \($1)"
        }
        lines += zip(result.changedIds ?? [], result.changedIndexes ?? []).map { "  ~ \(Display.shortId($0)) at \($1)" }
        lines += (result.moves ?? []).map { "  ↕ \(id(at: $0.from)) \($0.from) → \($0.to)" }
        return lines
    }

    /// The local time of day to the millisecond, as each line starts.
    static func now() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter.string(from: Date())
    }
}
