import ArgumentParser
import PhotoLibrary

struct PlacesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "List the cities the photos were taken in, with their countries, regions and asset counts.",
        discussion: """
            Places are named offline from GeoNames (CC BY 4.0): each located asset is in the nearest populated \
            place of 500 people or more within 25 km. The most photographed city comes first. \
            'photolib assets --place NAME' lists the assets of a city, region or country.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Flag(
        help: "Print each city as one line of JSON, as the daemon sends it (with its key asset and mean position).")
    var json = false

    @OptionGroup var filter: AssetFilter

    func run() async throws {
        let library = try await connection.connect()
        let query = try await filter.query(in: library)
        let places: [PlaceSummary]
        do {
            places = try await library.fetchPlaces(matching: query)
        } catch {
            throw try await filter.explain(error, in: library)
        }
        await library.close()
        if json {
            for place in places { try Console.printJSON(place) }
            return
        }
        var table = TextTable(header: ["COUNTRY", "REGION", "CITY", "COUNT"])
        for place in places {
            table.append([place.country, place.region ?? "-", place.city, String(place.assetCount)])
        }
        table.print(empty: "no places")
    }
}
