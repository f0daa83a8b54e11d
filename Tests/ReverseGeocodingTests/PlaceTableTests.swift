import Foundation
import GRDB
import PhotoModel
import ReverseGeocoding
import TestSupport
import Testing

/// Tables written by the tests: the antimeridian, sections, and tables that cannot be used.
@Suite struct PlaceTableTests {
    /// A table in the format of scripts/lib/build-place-table.py with `places` (id, name, latitude, longitude,
    /// cityId), all in Fiji.
    private func table(
        in folder: TemporaryDirectory, format: String = "1",
        places: [(id: Int, name: String, latitude: Double, longitude: Double, cityId: Int?)]
    ) throws -> String {
        let path = folder.file("places.sqlite")
        try DatabaseQueue(path: path).write { db in
            try db.execute(
                sql: """
                    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE country(code TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE region(id INTEGER PRIMARY KEY, countryCode TEXT NOT NULL, name TEXT NOT NULL);
                    CREATE TABLE place(
                        id INTEGER PRIMARY KEY, name TEXT NOT NULL, countryCode TEXT NOT NULL, regionId INTEGER,
                        latitudeMicrodegrees INTEGER NOT NULL, longitudeMicrodegrees INTEGER NOT NULL,
                        cityId INTEGER);
                    INSERT INTO country VALUES ('FJ', 'Fiji');
                    INSERT INTO region VALUES (1, 'FJ', 'Northern');
                    """)
            try db.execute(sql: "INSERT INTO meta VALUES ('formatVersion', ?)", arguments: [format])
            for place in places {
                try db.execute(
                    sql: "INSERT INTO place VALUES (?, ?, 'FJ', 1, ?, ?, ?)",
                    arguments: [
                        place.id, place.name, Int((place.latitude * 1e6).rounded()),
                        Int((place.longitude * 1e6).rounded()), place.cityId,
                    ])
            }
        }
        return path
    }

    @Test func theNearestPlaceMayLieAcrossTheAntimeridian() throws {
        let folder = try TemporaryDirectory()
        let geocoder = try ReverseGeocoder(
            tableAt: table(
                in: folder,
                places: [
                    (1, "East", -16.8, 179.99, nil),
                    (2, "West", -16.8, -179.95, nil),
                ]))
        #expect(geocoder.place(latitude: -16.8, longitude: -179.999)?.city == "East")
        #expect(geocoder.place(latitude: -16.8, longitude: 180)?.city == "East")
        #expect(geocoder.place(latitude: -16.8, longitude: 179.97)?.city == "East")
        #expect(geocoder.place(latitude: -16.8, longitude: -179.96)?.city == "West")
        // 0.16° of longitude from West at 16.8° S is 17 km; 0.25° is 27 km.
        #expect(geocoder.place(latitude: -16.8, longitude: -179.79)?.city == "West")
        #expect(geocoder.place(latitude: -16.8, longitude: -179.70) == nil)
    }

    @Test func aSectionNamesTheCityItBelongsTo() throws {
        let folder = try TemporaryDirectory()
        let geocoder = try ReverseGeocoder(
            tableAt: table(
                in: folder,
                places: [
                    (1, "Town North", -16.40, 179.36, 2),
                    (2, "Town", -16.43, 179.36, nil),
                ]))
        #expect(
            geocoder.place(latitude: -16.39, longitude: 179.36)
                == AssetPlace(
                    id: "2", city: "Town", region: "Northern", country: "Fiji", countryCode: "FJ"))
    }

    @Test func aMissingTableIsAnErrorThatSaysSo() throws {
        let folder = try TemporaryDirectory()
        let error = #expect(throws: PlaceTableError.self) { try ReverseGeocoder(tableAt: folder.file("none.sqlite")) }
        #expect(error?.reason == .missing)
        #expect(
            error?.description == "no place table at \(folder.file("none.sqlite")) (scripts/setup builds it; "
                + "the photolibd package installs it)")
    }

    @Test func garbageBytesAreACorruptTable() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("places.sqlite")
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: PlaceTableError.self) { try ReverseGeocoder(tableAt: path) }
        #expect(error?.reason == .corrupt)
        #expect(error?.description == "the place table at \(path) is corrupt: file is not a database")
    }

    @Test func aTableOfAnotherFormatIsRefused() throws {
        let folder = try TemporaryDirectory()
        let path = try table(in: folder, format: "2", places: [])
        let error = #expect(throws: PlaceTableError.self) { try ReverseGeocoder(tableAt: path) }
        #expect(error?.reason == .wrongFormat)
        #expect(
            error?.description == "the place table at \(path) is not one this program reads: format 2, "
                + "this program reads format 1")
    }

    @Test func aDatabaseWithoutThePlaceTablesIsRefused() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("library.sqlite")
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE asset(id INTEGER PRIMARY KEY)") }
        let error = #expect(throws: PlaceTableError.self) { try ReverseGeocoder(tableAt: path) }
        #expect(error?.reason == .wrongFormat)
        #expect(error?.description.contains("no such table: meta") == true)
    }

    @Test func aFolderIsNoTable() throws {
        let folder = try TemporaryDirectory()
        let error = #expect(throws: PlaceTableError.self) { try ReverseGeocoder(tableAt: folder.path) }
        #expect(error?.reason == .unreadable)
    }
}
