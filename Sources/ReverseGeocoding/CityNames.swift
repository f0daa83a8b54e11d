import PhotoModel

/// The names of the table's cities (places that are not sections of another), kept compactly: the city names in one
/// UTF-8 buffer, each division and country name once.
struct CityNames: Sendable {
    /// GeoNames ids, ascending.
    var ids: [Int32] = []
    /// Where each city's name ends in `nameBytes` (it starts where the previous one ends).
    var nameEnds: [UInt32] = []
    var nameBytes: [UInt8] = []
    /// Each city's index in `regionNames`, or `noRegion`.
    var regions: [UInt16] = []
    /// Each city's index in `countryCodes` and `countryNames`.
    var countries: [UInt8] = []
    var regionNames: [String] = []
    var countryCodes: [String] = []
    var countryNames: [String] = []

    static let noRegion = UInt16.max

    /// The index of the city with GeoNames id `id`, if there is one.
    func index(ofID id: Int32) -> Int? {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }

    func name(at index: Int) -> AssetPlace {
        let start = index == 0 ? 0 : Int(nameEnds[index - 1])
        let region = regions[index]
        let country = Int(countries[index])
        return AssetPlace(
            id: String(ids[index]),
            city: String(decoding: nameBytes[start..<Int(nameEnds[index])], as: UTF8.self),
            region: region == Self.noRegion ? nil : regionNames[Int(region)],
            country: countryNames[country],
            countryCode: countryCodes[country]
        )
    }
}
