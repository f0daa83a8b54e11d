/// A populated place as a person names it (CONTRACT §15): a city, its first-level division and its country.
public struct PlaceName: Sendable, Hashable, Codable {
    /// The city's GeoNames id, as a string ("2988507").
    public var id: String
    /// GeoNames' name of the city ("Zürich", "São Paulo"); a section of a city gives its city's.
    public var city: String
    /// The first-level division's name ("Île-de-France"), when the data names it.
    public var region: String?
    /// GeoNames' country name ("Russia", "South Korea", "United States").
    public var country: String
    /// ISO 3166-1 alpha-2 ("FR").
    public var countryCode: String

    public init(id: String, city: String, region: String?, country: String, countryCode: String) {
        self.id = id
        self.city = city
        self.region = region
        self.country = country
        self.countryCode = countryCode
    }
}
