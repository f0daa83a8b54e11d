import CompactJSON

/// Where an asset was taken, by name (CONTRACT §15): the nearest GeoNames populated place to its location.
public struct AssetPlace: Sendable, Hashable, Codable {
    /// The place's GeoNames id.
    public var id: String
    /// GeoNames' name of the place ("Zürich"); a section of a city is named as its city.
    public var city: String
    /// Its first-level division ("Île-de-France"), when GeoNames names one.
    public var region: String?
    /// GeoNames' name of its country ("South Korea").
    public var country: String
    /// ISO 3166-1 alpha-2.
    public var countryCode: String

    public init(id: String, city: String, region: String?, country: String, countryCode: String) {
        self.id = id
        self.city = city
        self.region = region
        self.country = country
        self.countryCode = countryCode
    }

    /// Writes every member, with an explicit null region.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(city, forKey: .city)
        try container.encode(region, forKey: .region)
        try container.encode(country, forKey: .country)
        try container.encode(countryCode, forKey: .countryCode)
    }
}

/// A city of the library (`FetchPlaces`): its place, how many assets were taken there, one to show, and their mean
/// position on the sphere.
public struct PlaceSummary: Sendable, Hashable, Codable {
    public var id: String
    public var city: String
    public var region: String?
    public var country: String
    public var countryCode: String
    public var assetCount: Int
    public var keyAssetId: String
    public var latitude: Double
    public var longitude: Double

    public init(place: AssetPlace, assetCount: Int, keyAssetId: String, latitude: Double, longitude: Double) {
        id = place.id
        city = place.city
        region = place.region
        country = place.country
        countryCode = place.countryCode
        self.assetCount = assetCount
        self.keyAssetId = keyAssetId
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The place itself, without the library's figures.
    public var place: AssetPlace {
        AssetPlace(id: id, city: city, region: region, country: country, countryCode: countryCode)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(city, forKey: .city)
        try container.encode(region, forKey: .region)
        try container.encode(country, forKey: .country)
        try container.encode(countryCode, forKey: .countryCode)
        try container.encode(assetCount, forKey: .assetCount)
        try container.encode(keyAssetId, forKey: .keyAssetId)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
    }
}

extension AssetPlace: JSONWritable, JSONReadable {
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.string(id)
        json.key("city"); json.string(city)
        json.key("region"); json.optional(region) { $0.string($1) }
        json.key("country"); json.string(country)
        json.key("countryCode"); json.string(countryCode)
        json.endObject()
    }

    public init(reading json: inout JSONReader) throws(JSONReadError) {
        var id: String?, city: String?, region: String?, country: String?, countryCode: String?
        try json.readObject { key, json throws(JSONReadError) in
            switch key {
            case "id": id = try json.readString()
            case "city": city = try json.readString()
            case "region": region = try json.readOptional { json throws(JSONReadError) in try json.readString() }
            case "country": country = try json.readString()
            case "countryCode": countryCode = try json.readString()
            default: try json.skipValue()
            }
        }
        guard let id, let city, let country, let countryCode else {
            throw json.error("a place lacks its id, city, country or country code")
        }
        self.init(id: id, city: city, region: region, country: country, countryCode: countryCode)
    }
}
