import ArgumentParser
import Foundation
import PhotoLibrary

struct SetLocationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-location",
        abstract: "Set where assets were taken, copy the place of another asset, or clear it.",
        discussion: "'photolib assets --where \"latitude == nil\"' lists the assets that have no place."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var selection: AssetSelection

    // Unconditional: a southern or western place starts with '-' (--to -33.8688,151.2093).
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The place in decimal degrees, and optionally the altitude in metres: 48.8584,2.2945[,35].",
            valueName: "latitude,longitude"))
    var to: Coordinates?

    @Option(help: ArgumentHelp("Take the place of this asset (its id or the start of it).", valueName: "asset-id"))
    var from: String?

    @Flag(help: "Remove the place.")
    var clear = false

    func validate() throws {
        guard [to != nil, from != nil, clear].filter({ $0 }).count == 1 else {
            throw ValidationError("say where: --to LATITUDE,LONGITUDE, --from ASSET or --clear (one of them)")
        }
    }

    func run() async throws {
        let library = try await connection.connect()
        var location = to?.location
        if let from {
            let source = try await References(library: library).asset(from)
            guard let place = source.location else { throw CommandFailure("\(source.summary) has no place to copy") }
            location = place
        }
        let found = try await selection.resolve(in: library, scope: .includingHidden) {
            location == nil ? "Remove the place of \($0)?" : "Set the place of \($0)?"
        }
        var changes = PhotoLibrary.ChangeBuilder()
        for asset in found { changes.setLocation(location, for: asset.id) }
        _ = try await library.performChanges(changes)
        // Each as it is now, with the place its new location is in.
        let query = AssetQuery(
            ids: found.map(\.id), includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)
        let named = Dictionary(
            try await library.fetchAllAssets(matching: query).assets.map { ($0.id, $0.place) },
            uniquingKeysWith: { a, _ in a })
        let shown = location.map(Display.location) ?? "no place"
        for asset in found {
            let place = named[asset.id].flatMap { $0 }.map { " (\(Display.place($0)))" } ?? ""
            Console.print("\(asset.summary): \(shown)\(place)")
        }
    }
}

/// `latitude,longitude[,altitude]` in decimal degrees and metres.
struct Coordinates: ExpressibleByArgument {
    let location: Location

    init?(argument: String) {
        let numbers = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (2...3).contains(numbers.count), !numbers.contains(nil) else { return nil }
        let location = Location(
            latitude: numbers[0]!, longitude: numbers[1]!, altitude: numbers.count == 3 ? numbers[2] : nil)
        guard location.isValid else { return nil }
        self.location = location
    }
}
