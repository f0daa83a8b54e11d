import ArgumentParser
import PhotoLibrary

struct SmartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smart",
        abstract: "List the smart albums with their exact counts and date ranges."
    )

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let library = try await connection.connect()
        var table = TextTable(header: ["ID", "COUNT", "FIRST", "LAST", "TITLE"])
        for album in try await library.fetchAllCollections(matching: CollectionQuery(kind: .smartAlbum)).collections {
            table.append([album.id, album.assetCount.map(String.init) ?? "-", album.startDate?.rfc3339 ?? "-",
                          album.endDate?.rfc3339 ?? "-", album.title])
        }
        table.print()
    }
}
