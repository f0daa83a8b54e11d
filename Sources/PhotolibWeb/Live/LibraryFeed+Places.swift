import CompactJSON
import NIOCore
import PhotoLibrary

/// The Places view (CONTRACT §15): the library's cities with their counts and key photos, fetched from the daemon
/// when a page asks and again, for the pages that show them, after every change of the library's assets.
extension LibraryFeed {
    /// The cities of the library (neither hidden nor trashed assets), the most photographed first, with the version
    /// of each key asset's thumbnail.
    struct PlaceList: Sendable, Equatable {
        var places: [PlaceSummary]
        var keyVersions: [String: String]
        /// The asset changes (`assetChanges`) this list is current for.
        var generation: Int
        var token: String?

        static func == (left: PlaceList, right: PlaceList) -> Bool {
            left.places == right.places && left.keyVersions == right.keyVersions
        }
    }

    /// How long a refresh waits for more changes (an import's run of them) before it asks the daemon.
    static let placesQuietPeriod = Duration.milliseconds(200)

    /// `GET /api/places`: `{token, places: [{id, city, region, country, countryCode, assetCount, keyAssetId,
    /// keyVersion, latitude, longitude}]}`.
    func placesJSON() async throws(GalleryError) -> [UInt8] {
        PageEvent.placesJSON(try await currentPlaces())
    }

    /// The place `id`, when the library holds photos taken there.
    func place(_ id: String) async throws(GalleryError) -> AssetPlace? {
        if let known = places?.places.first(where: { $0.id == id }) { return known.place }
        return try await fetchPlaces().places.first { $0.id == id }?.place
    }

    func currentPlaces() async throws(GalleryError) -> PlaceList {
        if let places, places.generation == assetChanges { return places }
        return try await fetchPlaces()
    }

    private func fetchPlaces() async throws(GalleryError) -> PlaceList {
        let generation = assetChanges
        let token = token
        let summaries = try await connections.withLibrary { library throws(PhotoLibraryError) in
            try await library.fetchPlaces(matching: AssetQuery())
        }
        let keyTiles = try await connections.fetchTiles(Array(Set(summaries.map(\.keyAssetId))))
        let list = PlaceList(
            places: summaries, keyVersions: Dictionary(keyTiles.map { ($0.id, $0.version) }, uniquingKeysWith: { $1 }),
            generation: generation, token: token)
        if (places?.generation ?? -1) <= generation { places = list }
        return list
    }

    /// A page's stream for the Places view: the cities now, and again whenever they change.
    func subscribeToPlaces(_ page: PageMailbox) async {
        guard let list = try? await currentPlaces() else {
            waitingPages[ObjectIdentifier(page)] = page
            return
        }
        placePages[ObjectIdentifier(page)] = page
        if list == placesPosted { page.post(PageEvent.places(list)) } else { postPlaces(list) }
    }

    /// Called for every change of the library's assets: the cities may have changed (a photo with GPS imported,
    /// trashed, hidden or moved), so the pages that show them get them again.
    func placesChanged() {
        assetChanges += 1
        guard !placePages.isEmpty, placesRefresh == nil else { return }
        placesRefresh = Task { await refreshPlaces() }
    }

    /// Fetches the cities until they are current for the latest change, telling the pages when they differ.
    private func refreshPlaces() async {
        defer { placesRefresh = nil }
        var list: PlaceList
        repeat {
            try? await Task.sleep(for: Self.placesQuietPeriod)
            guard !placePages.isEmpty, let fetched = try? await fetchPlaces() else { return }
            list = fetched
            postPlaces(list)
        } while list.generation != assetChanges
    }

    /// Sends the cities to every page that shows them, when they differ from what the pages were sent last.
    private func postPlaces(_ list: PlaceList) {
        guard list != placesPosted else { return }
        placesPosted = list
        let event = PageEvent.places(list)
        for page in placePages.values { page.post(event) }
    }
}

extension PageEvent {
    /// `places`: `{token, places}` as `GET /api/places` answers.
    static func places(_ list: LibraryFeed.PlaceList) -> ByteBuffer {
        event("places", id: nil, bytes: placesJSON(list))
    }

    static func placesJSON(_ list: LibraryFeed.PlaceList) -> [UInt8] {
        var json = JSONWriter(capacity: 256 + list.places.count * 200)
        json.beginObject()
        json.key("token"); json.optional(list.token) { $0.string($1) }
        json.key("places")
        json.array(list.places) { json, place in
            json.beginObject()
            json.key("id"); json.string(place.id)
            json.key("city"); json.string(place.city)
            json.key("region"); json.optional(place.region) { $0.string($1) }
            json.key("country"); json.string(place.country)
            json.key("countryCode"); json.string(place.countryCode)
            json.key("assetCount"); json.int(place.assetCount)
            json.key("keyAssetId"); json.string(place.keyAssetId)
            json.key("keyVersion"); json.string(list.keyVersions[place.keyAssetId] ?? "o")
            json.key("latitude"); json.double(place.latitude)
            json.key("longitude"); json.double(place.longitude)
            json.endObject()
        }
        json.endObject()
        return json.bytes
    }
}
