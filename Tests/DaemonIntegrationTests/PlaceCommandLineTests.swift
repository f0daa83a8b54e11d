import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// Places on the command line (CONTRACT §15): `photolib places`, `assets --place`, the place in `info`, and the
/// background naming's progress in `status`, against a real daemon and photos whose GPS exiftool wrote.
@Suite(.serialized)
struct PlaceCommandLineTests {
    private func photolib(_ daemon: DaemonProcess, _ arguments: [String], checked: Bool = true) throws -> ToolResult {
        try runTool(
            DaemonProcess.productsDirectory + "/photolib", ["--socket", daemon.socketPath] + arguments,
            environment: ProcessInfo.processInfo.environment.filter { $0.key != "COLUMNS" }, checked: checked)
    }

    /// A photo taken at `latitude`, `longitude`; `index` makes each one's pixels its own.
    private static func photo(_ index: Int, _ latitude: Double, _ longitude: Double, in files: TemporaryDirectory)
        throws -> String
    {
        try ImageFixtures.image(
            at: files.file("\(index).jpg"), width: 60 + index,
            exif: [
                "-GPSLatitude=\(abs(latitude))", "-GPSLatitudeRef=\(latitude < 0 ? "S" : "N")",
                "-GPSLongitude=\(abs(longitude))", "-GPSLongitudeRef=\(longitude < 0 ? "W" : "E")",
            ])
    }

    /// The ids `photolib assets --json` prints with `arguments`.
    private func listedIds(_ daemon: DaemonProcess, _ arguments: [String]) throws -> Set<String> {
        let output = try photolib(daemon, ["assets", "--json"] + arguments).output
        return Set(
            try output.split(separator: "\n").map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return try #require(object?["id"] as? String)
            })
    }

    @Test func placesAreListedByCountAndAssetsFoundByTheirPlaceWhateverTheCaseAndAccents() async throws {
        let daemon = try DaemonProcess()
        try await daemon.start()
        let files = try TemporaryDirectory()
        let positions = [
            (47.3769, 8.5417), (47.3770, 8.5418), (47.3771, 8.5419),  // Zürich
            (48.8584, 2.2945), (48.8585, 2.2946),  // Paris
            (-33.8688, 151.2093),  // Sydney
            (40.0, -40.0),  // the Atlantic: no place
        ]
        var paths = try positions.enumerated().map { try Self.photo($0.offset, $0.element.0, $0.element.1, in: files) }
        paths.append(try ImageFixtures.image(at: files.file("nowhere.jpg"), width: 90))
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await library.importFiles(paths).files.compactMap(\.assetId)
        try #require(ids.count == paths.count)
        let zurich = Set(ids[0..<3]), paris = Set(ids[3..<5]), sydney = ids[5]

        // The table: the most photographed city first, with its country and region.
        let table = try photolib(daemon, ["places"]).output.split(separator: "\n").map {
            $0.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        #expect(
            table == [
                ["COUNTRY", "REGION", "CITY", "COUNT"], ["Switzerland", "Zurich", "Zürich", "3"],
                ["France", "Île-de-France", "Paris", "2"], ["Australia", "New South Wales", "Sydney", "1"],
            ], "\(table)")
        let json = try photolib(daemon, ["places", "--json"]).output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(json.map { $0["city"] as? String } == ["Zürich", "Paris", "Sydney"])
        #expect(json.map { $0["assetCount"] as? Int } == [3, 2, 1])
        #expect(json.map { $0["countryCode"] as? String } == ["CH", "FR", "AU"])
        #expect(zurich.contains(json[0]["keyAssetId"] as? String ?? ""))
        #expect(json[0]["id"] as? String == "2657896" && json[0]["latitude"] as? Double != nil)
        // The listing's query options choose the assets whose places are counted.
        let french = try photolib(daemon, ["places", "--json", "--place", "FRANCE"]).output
        #expect(french.split(separator: "\n").count == 1 && french.contains("\"city\":\"Paris\""), "\(french)")
        _ = try photolib(daemon, ["favorite", ids[0], sydney])
        let favorites = try photolib(daemon, ["places", "--where", "isFavorite == YES"]).output
        #expect(favorites.contains("Sydney") && favorites.contains("Zürich") && !favorites.contains("Paris"))
        let none = try photolib(daemon, ["places", "--place", "Atlantis"])
        #expect(none.output.isEmpty && none.errors.contains("no places"))

        // --place: a city, a region or a country, case and accents ignored.
        let named: [(String, Set<String>)] = [
            ("zürich", zurich), ("ZURICH", zurich), ("Île-de-France", paris), ("ile-de-france", paris),
            ("france", paris), ("Paris", paris), ("new south wales", [sydney]), ("AUSTRALIA", [sydney]),
        ]
        for (text, expected) in named {
            #expect(try listedIds(daemon, ["--place", text]) == expected, "--place \(text)")
        }
        #expect(try listedIds(daemon, ["--place", "zurich", "--where", "isFavorite == YES"]) == [ids[0]])

        // A name is matched as written, whatever quotes and predicate words it holds; an empty one is refused.
        for hostile in [
            "Zürich' OR TRUEPREDICATE OR city == '", "Zürich\" OR TRUEPREDICATE OR city == \"", "Paris\\",
            "O'Higgins", "\\*", "*", "Zürich) OR (TRUEPREDICATE",
        ] {
            let result = try photolib(daemon, ["assets", "--place", hostile], checked: false)
            #expect(result.status == 0 && result.output.isEmpty, "--place \(hostile): \(result.output)\(result.errors)")
            #expect(result.errors.contains("no assets match"), "--place \(hostile): \(result.errors)")
        }
        let empty = try photolib(daemon, ["assets", "--place", " "], checked: false)
        #expect(empty.status != 0 && empty.errors.contains("--place needs the name"), "\(empty.errors)")

        // assets --json carries each asset's place, null where there is none.
        let objects = try photolib(daemon, ["assets", "--json"]).output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        func place(_ id: String) -> Any? { objects.first { $0["id"] as? String == id }?["place"] }
        let eiffel = place(ids[3]) as? [String: Any]
        #expect(eiffel?["city"] as? String == "Paris" && eiffel?["region"] as? String == "Île-de-France")
        #expect(eiffel?["country"] as? String == "France" && eiffel?["countryCode"] as? String == "FR")
        #expect(place(ids[6]) is NSNull && place(ids[7]) is NSNull)

        // info: the place by name beside the coordinates, "-" without one.
        let info = try photolib(daemon, ["info", ids[3]]).output
        #expect(info.contains("\nplace     Paris, Île-de-France, France\n"), "\(info)")
        #expect(info.contains("\nlocation  48.858400, 2.294500"), "\(info)")
        let atSea = try photolib(daemon, ["info", ids[6]]).output
        #expect(atSea.contains("\nplace     -\n") && atSea.contains("\nlocation  40.000000, -40.000000"), "\(atSea)")
        #expect(try photolib(daemon, ["info", ids[7]]).output.contains("\nlocation  -\n"))

        // set-location says where the new location is.
        let moved = try photolib(daemon, ["set-location", ids[7], "--to", "-33.8688,151.2093"]).output
        #expect(moved.contains("(Sydney, New South Wales, Australia)"), "\(moved)")
        await library.close()
        try await daemon.stop()
    }

    /// `status` says why places cannot be named, and how many of the assets imported meanwhile the background
    /// named once they can; `status --json` carries the same progress.
    @Test func statusShowsThePlaceAnalysisProgressOrItsProblem() async throws {
        let daemon = try DaemonProcess()
        let files = try TemporaryDirectory()
        let missing = files.file("missing.sqlite")
        try await daemon.start(environment: ["PHOTOLIBD_PLACE_TABLE": missing])
        let paths = [
            try Self.photo(0, 48.8584, 2.2945, in: files), try Self.photo(1, 47.3769, 8.5417, in: files),
        ]
        var library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let ids = try await library.importFiles(paths).files.compactMap(\.assetId)
        try #require(ids.count == 2)
        let problem = try await eventually { try await library.importStatus().analysis?.places?.problem }
        try #require(problem != nil)
        let status = try photolib(daemon, ["status"]).output
        #expect(status.contains("\nplaces:         not named: ") && status.contains(missing), "\(status)")
        let unnamed = try photolib(daemon, ["places"])
        #expect(unnamed.output.isEmpty && unnamed.errors.contains("no places"))
        #expect(try photolib(daemon, ["info", ids[0]]).output.contains("\nplace     -\n"))
        await library.close()
        try await daemon.stop()

        try await daemon.start()
        library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let named = try await eventually { try await library.importStatus().analysis?.places?.done == 2 }
        #expect(named)
        let shown = try photolib(daemon, ["status"]).output
        #expect(shown.contains("\nplaces:         2 of 2 named\n"), "\(shown)")
        let json = try photolib(daemon, ["status", "--json"]).output
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let importer = object?["importer"] as? [String: Any]
        let places = (importer?["analysis"] as? [String: Any])?["places"] as? [String: Any]
        #expect(places?["done"] as? Int == 2 && places?["total"] as? Int == 2, "\(json)")
        #expect(places?["problem"] == nil, "\(json)")
        #expect(try photolib(daemon, ["info", ids[0]]).output.contains("\nplace     Paris, Île-de-France, France\n"))
        await library.close()
        try await daemon.stop()
    }
}
