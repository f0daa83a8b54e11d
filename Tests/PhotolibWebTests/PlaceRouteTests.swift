import Foundation
import HTTPTypes
import Logging
import NIOCore
import PhotoLibrary
import TestSupport
import Testing

@testable import PhotolibWeb

/// The gallery's Places (CONTRACT §15) on photos whose GPS exiftool wrote: the cities with their counts and key
/// photos, a city's and a country's photos as views, the place in the asset's info, the search box finding photos by
/// their place's names, and the list kept live for the pages that show it.
@Suite(.serialized)
struct PlaceRouteTests {
    static let paris = "2988507", zurich = "2657896"

    /// A photo taken at `date` (`YYYY:MM:DD`) at the position given, its GPS written by exiftool.
    static func photo(
        _ name: String, _ latitude: Double, _ longitude: Double, taken date: String, in gallery: GalleryUnderTest
    )
        throws -> String
    {
        let folder = gallery.daemon.directory + "/located"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try ImageFixtures.image(
            at: "\(folder)/\(name).jpg", width: 64, height: 48,
            exif: [
                "-DateTimeOriginal=\(date) 12:00:00",
                "-GPSLatitude=\(abs(latitude))", "-GPSLatitudeRef=\(latitude < 0 ? "S" : "N")",
                "-GPSLongitude=\(abs(longitude))", "-GPSLongitudeRef=\(longitude < 0 ? "W" : "E")",
            ])
    }

    /// Two photos in Paris, one in Zürich, one in São Paulo and one at sea, beside the gallery's own photo without GPS.
    static func locatedPhotos(in gallery: GalleryUnderTest) async throws -> [String] {
        try await gallery.importing([
            try photo("eiffel", 48.8584, 2.2945, taken: "2024:06:01", in: gallery),
            try photo("louvre", 48.8606, 2.3376, taken: "2024:06:02", in: gallery),
            try photo("zurich", 47.3769, 8.5417, taken: "2024:06:03", in: gallery),
            try photo("sao-paulo", -23.5505, -46.6333, taken: "2024:06:04", in: gallery),
            try photo("atlantic", 40.0, -40.0, taken: "2024:06:05", in: gallery),
        ])
    }

    @Test func theCitiesComeWithTheirCountsAndKeyPhotosAndACityOpensItsPhotos() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        let ids = try await Self.locatedPhotos(in: gallery)
        try await gallery.test { client in
            let answer = try await Self.json(
                client.execute(uri: "/api/places", method: .get, headers: gallery.signedIn))
            let places = try #require(answer["places"] as? [[String: Any]])
            #expect(
                places.map { $0["city"] as? String } == ["Paris", "São Paulo", "Zürich"], "the most photographed first")
            #expect(places[0]["id"] as? String == Self.paris && places[2]["id"] as? String == Self.zurich)
            #expect(places.map { $0["assetCount"] as? Int } == [2, 1, 1])
            let paris = places[0]
            #expect(paris["city"] as? String == "Paris" && paris["country"] as? String == "France")
            #expect(paris["region"] as? String == "Île-de-France" && paris["countryCode"] as? String == "FR")
            #expect(paris["keyAssetId"] as? String == ids[1], "the newest photo of the city")
            let version = try #require(paris["keyVersion"] as? String)
            let key = try await client.execute(
                uri: "/image/\(ids[1])/\(version)/256", method: .get, headers: gallery.signedIn)
            #expect(key.status == .ok && key.headers[.contentType] == "image/jpeg")

            #expect(try await Self.viewIds("place-\(Self.paris)", client, gallery) == [ids[1], ids[0]])
            #expect(try await Self.viewIds("place-\(Self.zurich)", client, gallery) == [ids[2]])
            #expect(try await Self.viewIds("country-BR", client, gallery) == [ids[3]])

            let info = try await Self.json(
                client.execute(uri: "/api/assets/\(ids[2])", method: .get, headers: gallery.signedIn))
            let place = try #require((info["asset"] as? [String: Any])?["place"] as? [String: Any])
            #expect(place["city"] as? String == "Zürich" && place["country"] as? String == "Switzerland")
            let atSea = try await Self.json(
                client.execute(uri: "/api/assets/\(ids[4])", method: .get, headers: gallery.signedIn))
            #expect((atSea["asset"] as? [String: Any])?["place"] is NSNull, "no place at sea")

            for view in [
                "place-999999999", "place-12ab", "place-", "place-1%27%20OR%201", "country-fr", "country-FRA", "places",
            ] {
                let response = try await client.execute(
                    uri: "/api/views/\(view)", method: .get, headers: gallery.signedIn)
                #expect(response.status == .notFound, "\(view)")
            }
        }
    }

    @Test func theSearchBoxFindsPhotosByTheirPlaceWhateverTheCaseAndAccents() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        let ids = try await Self.locatedPhotos(in: gallery)
        try await gallery.test { client in
            for (text, expected) in [
                ("zurich", [2]), ("ZÜRICH", [2]), ("sao paulo", [3]), ("france", [0, 1]), ("ile-de-france", [0, 1]),
                ("Brazil", [3]), ("switzer", [2]), ("atlantis", []),
            ] {
                let terms = try JSONSerialization.data(withJSONObject: ["text": text])
                let key =
                    "search-"
                    + terms.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
                #expect(Set(try await Self.viewIds(key, client, gallery)) == Set(expected.map { ids[$0] }), "\(text)")
            }
        }
    }

    @Test func aPageShowingThePlacesIsToldOfACityThatAppearsOrGrowsOrGoes() async throws {
        let gallery = try await GalleryUnderTest.start(photos: 1)
        let first = try await gallery.importing([
            try Self.photo("eiffel", 48.8584, 2.2945, taken: "2024:06:01", in: gallery)
        ])
        let connections = LibraryConnections(socketPath: gallery.daemon.socketPath)
        let feed = LibraryFeed(
            connections: connections, recentThumbnails: RecentThumbnails(), logger: Logger(label: "places-test"))
        let running = Task { await feed.run() }
        let page = PageMailbox()
        let patience = Task {
            try await Task.sleep(for: .seconds(30))
            page.close()
        }
        await feed.subscribe(page, to: try #require(ViewSpec(key: "places")), lastToken: nil)
        var seen: [[String: Int]] = []
        func waitFor(_ wanted: [String: Int]) async throws {
            while seen.last != wanted, let events = await page.events() {
                for event in events {
                    let text = String(buffer: event)
                    guard text.hasPrefix("event: places\n"),
                        let data = text.split(separator: "data: ", maxSplits: 1).last,
                        let object = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
                        let places = object["places"] as? [[String: Any]]
                    else { continue }
                    seen.append(
                        Dictionary(
                            places.map { ($0["city"] as! String, $0["assetCount"] as! Int) }, uniquingKeysWith: +))
                }
            }
            #expect(seen.last == wanted, "\(seen)")
        }
        try await waitFor(["Paris": 1])
        let more = try await gallery.importing([
            try Self.photo("louvre", 48.8606, 2.3376, taken: "2024:06:02", in: gallery),
            try Self.photo("zurich", 47.3769, 8.5417, taken: "2024:06:03", in: gallery),
        ])
        try await waitFor(["Paris": 2, "Zürich": 1])
        let library = try await PhotoLibrary.connect(socketPath: gallery.daemon.socketPath)
        var trash = PhotoLibrary.ChangeBuilder()
        trash.deleteAssets([more[1]])
        _ = try await library.performChanges(trash)
        await library.close()
        try await waitFor(["Paris": 2])
        #expect(first.count == 1)
        patience.cancel()
        await feed.unsubscribe(page, from: try #require(ViewSpec(key: "places")))
        running.cancel()
        _ = await running.value
        await connections.closeAll()
    }

    static func json(_ response: GalleryResponse) throws -> [String: Any] {
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// The ids of a view's assets, in its order.
    static func viewIds(_ view: String, _ client: GalleryClient, _ gallery: GalleryUnderTest) async throws
        -> [String]
    {
        let index = try json(
            try await client.execute(uri: "/api/views/\(view)", method: .get, headers: gallery.signedIn))
        let keys = (index["sections"] as? [[Any]] ?? []).map { $0[0] as! String }.joined(separator: ",")
        let sections = try json(
            try await client.execute(
                uri: "/api/views/\(view)/sections?keys=\(keys)", method: .get, headers: gallery.signedIn))
        return (sections["sections"] as? [[String: Any]] ?? []).flatMap {
            ($0["tiles"] as? [[Any]] ?? []).map { $0[0] as! String }
        }
    }
}
