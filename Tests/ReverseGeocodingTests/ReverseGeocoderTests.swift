import Foundation
import ReverseGeocoding
import Testing

/// Lookups in the real place table, as scripts/setup builds it into the checkout.
@Suite struct ReverseGeocoderTests {
    static let geocoder: ReverseGeocoder = {
        do {
            return try ReverseGeocoder(
                tableAt: ReverseGeocoder.defaultTablePath(environment: ProcessInfo.processInfo.environment))
        } catch {
            fatalError("\(error)")
        }
    }()

    struct CityCentre: Sendable, CustomTestStringConvertible {
        let latitude: Double
        let longitude: Double
        let city: String
        let region: String?
        let country: String
        let countryCode: String
        var testDescription: String { city }
    }

    @Test(arguments: [
        CityCentre(
            latitude: 47.3769, longitude: 8.5417, city: "Zürich", region: "Zurich", country: "Switzerland",
            countryCode: "CH"),
        CityCentre(
            latitude: -23.5475, longitude: -46.6361, city: "São Paulo", region: "São Paulo", country: "Brazil",
            countryCode: "BR"),
        CityCentre(
            latitude: 64.1355, longitude: -21.8954, city: "Reykjavík", region: "Capital Region", country: "Iceland",
            countryCode: "IS"),
        CityCentre(
            latitude: 55.7558, longitude: 37.6173, city: "Moscow", region: "Moscow", country: "Russia",
            countryCode: "RU"),
        CityCentre(
            latitude: 37.5665, longitude: 126.9780, city: "Seoul", region: "Seoul", country: "South Korea",
            countryCode: "KR"),
        CityCentre(
            latitude: 35.6896, longitude: 139.6921, city: "Tokyo", region: "Tokyo", country: "Japan",
            countryCode: "JP"),
        CityCentre(
            latitude: -33.8688, longitude: 151.2093, city: "Sydney", region: "New South Wales", country: "Australia",
            countryCode: "AU"),
        CityCentre(
            latitude: 39.7392, longitude: -104.9903, city: "Denver", region: "Colorado", country: "United States",
            countryCode: "US"),
        CityCentre(
            latitude: -18.1416, longitude: 178.4419, city: "Suva", region: "Central", country: "Fiji",
            countryCode: "FJ"),
        // Fiji's Lau Islands lie across the antimeridian from Suva.
        CityCentre(
            latitude: -18.2365, longitude: -178.8123, city: "Tubou", region: "Eastern", country: "Fiji",
            countryCode: "FJ"),
        // "Paris 16 Passy" is the nearest place to the Eiffel Tower: a section of Paris, it names Paris.
        CityCentre(
            latitude: 48.8584, longitude: 2.2945, city: "Paris", region: "Île-de-France", country: "France",
            countryCode: "FR"),
        // Praça da Sé: the nearest place is "Se", a district whose second-level division is São Paulo.
        CityCentre(
            latitude: -23.5505, longitude: -46.6333, city: "São Paulo", region: "São Paulo", country: "Brazil",
            countryCode: "BR"),
        // Towns beside a larger city in divisions of their own stay themselves.
        CityCentre(
            latitude: 48.8846, longitude: 2.2697, city: "Neuilly-sur-Seine", region: "Île-de-France",
            country: "France", countryCode: "FR"),
        CityCentre(
            latitude: 42.3751, longitude: -71.1056, city: "Cambridge", region: "Massachusetts",
            country: "United States", countryCode: "US"),
        // A city whose name begins with a larger one's ("San Jose") is no section of it.
        CityCentre(
            latitude: 14.8136, longitude: 121.0453, city: "San Jose del Monte", region: "Central Luzon",
            country: "Philippines", countryCode: "PH"),
    ])
    func aCityCentreNamesItsCityRegionAndCountry(_ centre: CityCentre) throws {
        let place = try #require(Self.geocoder.place(latitude: centre.latitude, longitude: centre.longitude))
        #expect(place.city == centre.city)
        #expect(place.region == centre.region)
        #expect(place.country == centre.country)
        #expect(place.countryCode == centre.countryCode)
    }

    @Test func aSectionAnswersItsCitysGeoNamesID() throws {
        let eiffelTower = try #require(Self.geocoder.place(latitude: 48.8584, longitude: 2.2945))
        #expect(eiffelTower.id == "2988507")
    }

    @Test(arguments: [
        (30.0, -40.0),  // the middle of the North Atlantic
        (0.0, 0.0),  // Null Island: cameras without a fix write it
        (89.99, 0.0),  // the North Pole
        (-90.0, 180.0),
        (.nan, 10.0),
        (10.0, .infinity),
        (90.5, 0.0),
        (0.0, -180.5),
    ])
    func aPositionWithNoPlaceOrNoMeaningHasNone(latitude: Double, longitude: Double) {
        #expect(Self.geocoder.place(latitude: latitude, longitude: longitude) == nil)
    }

    @Test func thePlaceTableComesFromTheEnvironmentFirst() {
        #expect(
            ReverseGeocoder.defaultTablePath(environment: ["PHOTOLIBD_PLACE_TABLE": "/tmp/t.sqlite"]) == "/tmp/t.sqlite"
        )
        #expect(ReverseGeocoder.defaultTablePath(environment: [:]).hasSuffix("/.build/places/places.sqlite"))
    }
}
