/// Where the library's photos were taken (CONTRACT §15): each asset's `place`, and the cities they make up.
extension PhotoLibrary {
    /// The cities the assets `query` selects were taken in, the most photographed first, each with its asset count,
    /// newest asset and mean position.
    public func fetchPlaces(matching query: AssetQuery? = nil) async throws(PhotoLibraryError) -> [PlaceSummary] {
        let reply: FetchPlacesReply = try await call(LibraryMethod.fetchPlaces, FetchPlacesParameters(query: query))
        return reply.places
    }
}
