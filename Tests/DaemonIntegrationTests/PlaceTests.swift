import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// Places (CONTRACT §15): each located asset named by the nearest GeoNames populated place, from the place table the
/// setup builds, at import, on every location change and in the background for a library from before places.
@Suite(.serialized)
struct PlaceTests {
    /// Positions written by exiftool, as a camera or phone writes them, and the place each must get.
    static let located: [(name: String, latitude: Double, longitude: Double, place: AssetPlace?)] = [
        (
            "eiffel", 48.8584, 2.2945,
            AssetPlace(id: "2988507", city: "Paris", region: "Île-de-France", country: "France", countryCode: "FR")
        ),
        (
            "zurich", 47.3769, 8.5417,
            AssetPlace(id: "2657896", city: "Zürich", region: "Zurich", country: "Switzerland", countryCode: "CH")
        ),
        (
            "sao-paulo", -23.5505, -46.6333,
            AssetPlace(id: "3448439", city: "São Paulo", region: "São Paulo", country: "Brazil", countryCode: "BR")
        ),
        (
            "moscow", 55.7558, 37.6173,
            AssetPlace(id: "524901", city: "Moscow", region: "Moscow", country: "Russia", countryCode: "RU")
        ),
        (
            "suva", -18.1248, 178.4501,
            AssetPlace(id: "2198148", city: "Suva", region: "Central", country: "Fiji", countryCode: "FJ")
        ),
        ("atlantic", 40.0, -40.0, nil),
        ("null-island", 0, 0, nil),
    ]

    static func photo(_ name: String, latitude: Double, longitude: Double, in files: TemporaryDirectory) throws
        -> String
    {
        try ImageFixtures.image(
            at: files.file("\(name).jpg"), width: 64,
            exif: [
                "-GPSLatitude=\(abs(latitude))", "-GPSLatitudeRef=\(latitude < 0 ? "S" : "N")",
                "-GPSLongitude=\(abs(longitude))", "-GPSLongitudeRef=\(longitude < 0 ? "W" : "E")",
            ])
    }

    @Test func importedPhotosAreNamedByTheirNearestPlace() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let paths = try Self.located.map {
            try Self.photo($0.name, latitude: $0.latitude, longitude: $0.longitude, in: files)
        }
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await library.importFiles(paths).files.compactMap(\.assetId)
        try #require(ids.count == Self.located.count)
        let assets = Dictionary(uniqueKeysWithValues: try await library.fetchAssets().assets.map { ($0.id, $0) })
        for (id, expected) in zip(ids, Self.located) {
            #expect(assets[id]?.place == expected.place, "\(expected.name)")
        }

        func matching(_ predicate: String) async throws -> Set<String> {
            Set(try await library.fetchAllAssets(matching: AssetQuery(predicate: predicate)).assets.map(\.id))
        }
        #expect(try await matching("country == 'France'") == [ids[0]])
        #expect(try await matching("city BEGINSWITH[c] 'zü'") == [ids[1]])
        #expect(try await matching("city BEGINSWITH[cd] 'sao'") == [ids[2]])
        #expect(try await matching("countryCode IN {'RU', 'FJ'}") == [ids[3], ids[4]])
        #expect(try await matching("city == nil AND latitude != nil") == [ids[5], ids[6]])

        // Hostile patterns on the place keys meet the predicate's limits like any key's, and the daemon serves on.
        let hostile = [
            "city LIKE '" + String(repeating: "x", count: 5_000) + "'",
            "country IN " + String(repeating: "{", count: 5_000),
            String(repeating: "(", count: 10_000) + "region == 'x'",
        ]
        for predicate in hostile {
            await #expect {
                try await library.fetchAssets(matching: AssetQuery(predicate: predicate))
            } throws: {
                ($0 as? PhotoLibraryError)?.varlinkError?.name == "io.photolibd.Library.InvalidPredicate"
            }
        }
        #expect(try await matching("city LIKE[cd] '*" + String(repeating: "*", count: 900) + "'").count == 5)

        let places = try await library.fetchPlaces()
        #expect(places.count == 5)
        #expect(places.allSatisfy { $0.assetCount == 1 })
        let paris = try #require(places.first { $0.city == "Paris" })
        #expect(paris.keyAssetId == ids[0])
        #expect(abs(paris.latitude - 48.8584) < 1e-6 && abs(paris.longitude - 2.2945) < 1e-6)
        await library.close()
        try await daemon.stop()
    }

    /// A new location is named in the same change, and an observer of the asset sees it changed with its new place.
    @Test func aLocationChangeReachesAnObserverWithItsNewPlace() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let path = try Self.photo("eiffel", latitude: 48.8584, longitude: 2.2945, in: files)
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let id = try #require(try await library.importFiles([path]).files.first?.assetId)
        let observer = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        var events = observer.observe(assetQueries: ["one": AssetQuery(ids: [id])]).makeAsyncIterator()
        _ = try #require(try await events.next())

        var change = PhotoLibrary.ChangeBuilder()
        change.setLocation(Location(latitude: -33.8688, longitude: 151.2093), for: id)
        let result = try await library.performChanges(change)
        let event = try #require(try await events.next())
        #expect(event.token == result.token)
        #expect(event.results.first?.changedIds == [id])
        let moved = try #require(try await library.fetchAssets(matching: AssetQuery(ids: [id])).assets.first)
        #expect(moved.place?.city == "Sydney" && moved.place?.region == "New South Wales")

        var clear = PhotoLibrary.ChangeBuilder()
        clear.setLocation(nil, for: id)
        _ = try await library.performChanges(clear)
        #expect(try await library.fetchAssets(matching: AssetQuery(ids: [id])).assets.first?.place == nil)
        await observer.close()
        await library.close()
        try await daemon.stop()
    }

    /// A library made before places: its located assets are named in the background after the upgrade, each
    /// announced as changed, with `modificationDate` untouched and `Status` counting them.
    @Test func aLibraryFromBeforePlacesIsNamedInTheBackground() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let paths = try Self.located.prefix(3).map {
            try Self.photo($0.name, latitude: $0.latitude, longitude: $0.longitude, in: files)
        }
        var library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await library.importFiles(paths).files.compactMap(\.assetId)
        try #require(ids.count == 3)
        let before = try await library.fetchAssets()
        await library.close()
        try await daemon.stop()

        // The previous version's schema: no place table, no place columns, the migration not run.
        try runTool(
            "/usr/bin/sqlite3",
            [
                daemon.libraryPath + "/library.sqlite",
                """
                DROP INDEX asset_by_place; DROP INDEX asset_awaiting_place;
                ALTER TABLE asset DROP COLUMN placeId; ALTER TABLE asset DROP COLUMN placeLookedUp;
                DROP TABLE place; DELETE FROM grdb_migrations WHERE identifier = 'v12-places';
                """,
            ])
        try await daemon.start()
        library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let named = try await eventually {
            try await library.fetchAssets().assets.allSatisfy { $0.place != nil }
        }
        #expect(named)
        let changes = try await library.fetchPersistentChanges(since: before.token).changes
        #expect(Set(changes.flatMap(\.updatedAssetIds)) == Set(ids))
        let after = try await library.fetchAssets()
        #expect(after.assets.map(\.modificationDate) == before.assets.map(\.modificationDate))
        let progress = try await eventually { try await library.importStatus().analysis?.places }
        #expect(progress?.done == 3 && progress?.total == 3 && progress?.problem == nil)
        await library.close()
        try await daemon.stop()
    }

    /// Without a usable place table the daemon runs and imports, places stay null, and `Status` says why; once the
    /// table is back, the assets imported meanwhile are named.
    @Test func aMissingOrCorruptPlaceTableLeavesPlacesUnnamedAndSaysWhy() async throws {
        let daemon = try DaemonProcess()
        let files = try TemporaryDirectory()
        let corrupt = files.file("places.sqlite")
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: corrupt))
        for table in [files.file("missing.sqlite"), corrupt] {
            try await daemon.start(environment: ["PHOTOLIBD_PLACE_TABLE": table])
            let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
            let path = try Self.photo(
                "eiffel-\(table.hasSuffix("missing.sqlite"))", latitude: 48.8584, longitude: 2.2945, in: files)
            let id = try #require(try await library.importFiles([path]).files.first?.assetId)
            #expect(try await library.fetchAssets(matching: AssetQuery(ids: [id])).assets.first?.place == nil)
            let problem = try await eventually { try await library.importStatus().analysis?.places?.problem }
            #expect(problem?.contains(table) == true, "\(problem ?? "no problem reported")")
            await library.close()
            try await daemon.stop()
            #expect(daemon.log().contains("places stay unnamed"))
        }
        try await daemon.start()
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let named = try await eventually {
            try await library.fetchAssets().assets.allSatisfy { $0.place?.city == "Paris" }
        }
        #expect(named)
        await library.close()
        try await daemon.stop()
    }

    /// A moment names its cities, the most photographed first.
    @Test func momentsNameTheirCities() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let day = ["-DateTimeOriginal=2024:06:01 12:00:00"]
        var paths: [String] = []
        for (index, (latitude, longitude)) in [(47.3769, 8.5417), (47.3770, 8.5418), (48.8584, 2.2945)].enumerated() {
            paths.append(
                try ImageFixtures.image(
                    at: files.file("\(index).jpg"), width: 60 + index,
                    exif: day + [
                        "-GPSLatitude=\(latitude)", "-GPSLatitudeRef=N", "-GPSLongitude=\(longitude)",
                        "-GPSLongitudeRef=E",
                    ]))
        }
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        _ = try await library.importFiles(paths)
        let moments = try await library.fetchCollections(matching: CollectionQuery(kind: .moment)).collections
        #expect(moments.map(\.locationNames) == [["Zürich", "Paris"]])
        await library.close()
        try await daemon.stop()
    }
}
