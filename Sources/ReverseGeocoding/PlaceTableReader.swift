import GRDB
import GRDBSQLite
import Glibc
import PhotolibLocations

/// Reads a place table written by scripts/lib/build-place-table.py (its docstring has the schema) into the cities'
/// names and a grid of every place, each section of a city answering its city.
enum PlaceTableReader {
    static let formatVersion = "1"

    static func read(path: String) throws(PlaceTableError) -> (cities: CityNames, grid: PlaceGrid) {
        guard FileSystem.exists(path) else { throw PlaceTableError(reason: .missing, path: path, detail: "") }
        guard access(path, R_OK) == 0 else {
            throw PlaceTableError(reason: .unreadable, path: path, detail: String(cString: strerror(errno)))
        }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            return try DatabaseQueue(path: path, configuration: configuration).read { db in
                try Reading(db: db, path: path).places()
            }
        } catch let error as PlaceTableError {
            throw error
        } catch let error as DatabaseError {
            throw PlaceTableError(
                resultCode: error.extendedResultCode.primaryResultCode, path: path,
                detail: error.message ?? "\(error)")
        } catch {
            throw PlaceTableError(reason: .unreadable, path: path, detail: "\(error)")
        }
    }
}

extension PlaceTableError {
    /// The error a failed SQLite call with `resultCode` means.
    fileprivate init(resultCode: ResultCode, path: String, detail: String) {
        let reason: Reason =
            switch resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_FORMAT: .corrupt
            case .SQLITE_ERROR, .SQLITE_MISMATCH: .wrongFormat
            default: .unreadable
            }
        self.init(reason: reason, path: path, detail: detail)
    }
}

/// One reading of a table, on its connection.
private struct Reading {
    let db: Database
    let path: String

    func places() throws -> (cities: CityNames, grid: PlaceGrid) {
        var format: String?
        try eachRow("SELECT value FROM meta WHERE key = 'formatVersion'") { format = text($0, 0) }
        guard format == PlaceTableReader.formatVersion else {
            throw wrongFormat("format \(format ?? "none"), this program reads format \(PlaceTableReader.formatVersion)")
        }
        var cities = CityNames()
        var countryIndex: [String: UInt8] = [:]
        try eachRow("SELECT code, name FROM country ORDER BY code") { row in
            guard cities.countryCodes.count < Int(UInt8.max) else { throw wrongFormat("too many countries") }
            countryIndex[text(row, 0)] = UInt8(cities.countryCodes.count)
            cities.countryCodes.append(text(row, 0))
            cities.countryNames.append(text(row, 1))
        }
        var regionIndex: [Int64: UInt16] = [:]
        try eachRow("SELECT id, name FROM region ORDER BY id") { row in
            guard cities.regionNames.count < Int(CityNames.noRegion) else { throw wrongFormat("too many regions") }
            regionIndex[sqlite3_column_int64(row, 0)] = UInt16(cities.regionNames.count)
            cities.regionNames.append(text(row, 1))
        }
        let citiesSQL = "SELECT id, name, countryCode, regionId FROM place WHERE cityId IS NULL ORDER BY id"
        try eachRow(citiesSQL) { row in
            guard let country = countryIndex[text(row, 2)] else { throw corrupt("a place's country is not listed") }
            cities.ids.append(sqlite3_column_int(row, 0))
            cities.nameBytes.append(contentsOf: bytes(row, 1))
            cities.nameEnds.append(UInt32(cities.nameBytes.count))
            let region = sqlite3_column_type(row, 3) == SQLITE_NULL ? nil : regionIndex[sqlite3_column_int64(row, 3)]
            cities.regions.append(region ?? CityNames.noRegion)
            cities.countries.append(country)
        }
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var cityIndices: [Int32] = []
        let placesSQL =
            "SELECT latitudeMicrodegrees, longitudeMicrodegrees, coalesce(cityId, id) FROM place ORDER BY id"
        try eachRow(placesSQL) { row in
            let latitude = Double(sqlite3_column_int(row, 0)) / 1e6
            let longitude = Double(sqlite3_column_int(row, 1)) / 1e6
            guard abs(latitude) <= 90, abs(longitude) <= 180 else { throw corrupt("a place lies outside ±90/±180") }
            guard let city = cities.index(ofID: sqlite3_column_int(row, 2)) else {
                throw corrupt("a section's city is not in the table")
            }
            latitudes.append(latitude)
            longitudes.append(longitude)
            cityIndices.append(Int32(city))
        }
        return (cities, PlaceGrid(latitudes: latitudes, longitudes: longitudes, values: cityIndices))
    }

    /// Runs `sql`, calling `body` with the statement at each row, read with sqlite3_column_* (no `Row` per place).
    private func eachRow(_ sql: String, _ body: (OpaquePointer) throws -> Void) throws {
        let statement = try db.makeStatement(sql: sql)
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw PlaceTableError(
                    resultCode: ResultCode(rawValue: code).primaryResultCode, path: path,
                    detail: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            try body(handle)
        }
    }

    private func bytes(_ row: OpaquePointer, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let text = sqlite3_column_text(row, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(row, column)))
    }

    private func text(_ row: OpaquePointer, _ column: Int32) -> String {
        String(decoding: bytes(row, column), as: UTF8.self)
    }

    private func corrupt(_ detail: String) -> PlaceTableError {
        PlaceTableError(reason: .corrupt, path: path, detail: detail)
    }

    private func wrongFormat(_ detail: String) -> PlaceTableError {
        PlaceTableError(reason: .wrongFormat, path: path, detail: detail)
    }
}
