import PhotoModel
import PhotolibLocations

/// Names the place at a position offline (CONTRACT §15): the nearest GeoNames populated place of 500 people or more
/// within 25 km by great-circle distance, a section of a city ("Paris 16 Passy") answering its city ("Paris").
///
/// The whole table is read into memory at `init` (about 10 MB); lookups then take a few microseconds and touch no
/// file, from any thread.
public final class ReverseGeocoder: Sendable {
    /// How far the nearest place may be.
    public static let searchRadiusKilometres = 25.0

    private let cities: CityNames
    private let grid: PlaceGrid

    /// Reads the place table at `path` (scripts/lib/build-place-table.py writes it).
    public init(tableAt path: String) throws(PlaceTableError) {
        (cities, grid) = try PlaceTableReader.read(path: path)
    }

    /// The place at `latitude`, `longitude` (degrees), or nil for a position that is not finite or out of range,
    /// exactly (0, 0) (written by cameras without a fix), or with no place within 25 km.
    public func place(latitude: Double, longitude: Double) -> AssetPlace? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
            latitude != 0 || longitude != 0,
            let city = grid.nearest(latitude: latitude, longitude: longitude, within: Self.searchRadiusKilometres)
        else { return nil }
        return cities.name(at: Int(city))
    }

    /// The table to read: `PHOTOLIBD_PLACE_TABLE`, else the source checkout's `.build/places/places.sqlite` when the
    /// program runs from one (scripts/setup builds it there), else the Debian package's.
    public static func defaultTablePath(environment: [String: String]) -> String {
        if let path = environment["PHOTOLIBD_PLACE_TABLE"], !path.isEmpty { return path }
        if let checkout = SourceCheckout.ofRunningProgram() {
            return Path.join(checkout, ".build/places/places.sqlite")
        }
        return "/usr/share/photolibd/places.sqlite"
    }
}
