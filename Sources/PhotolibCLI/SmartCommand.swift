import ArgumentParser
import PhotoLibrary

struct SmartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smart",
        abstract: "List the smart albums with their exact counts and date ranges."
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print each smart album as one line of JSON.")
    var json = false

    func run() async throws {
        let library = try await connection.connect()
        let albums = try await library.fetchAllCollections(matching: CollectionQuery(kind: .smartAlbum)).collections
        if json {
            for album in albums { try Console.printJSON(album) }
            return
        }
        var table = TextTable(header: ["ID", "COUNT", "FIRST (LOCAL TIME)", "LAST (LOCAL TIME)", "TITLE"])
        for album in albums {
            table.append([Display.shortId(album.id), album.assetCount.map(String.init) ?? "-", Display.localTime(album.startDate),
                          Display.localTime(album.endDate), album.title])
        }
        table.print(empty: "no smart albums")
    }
}
