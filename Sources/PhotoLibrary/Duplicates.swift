/// Copies of one photo (CONTRACT §17): re-saved, re-compressed, resized or re-tagged, found by their perceptual
/// fingerprints.
extension PhotoLibrary {
    /// The groups of duplicates among the assets `query` selects (the library when nil), each best first (more
    /// pixels, then a larger file, then the earlier added), as the Duplicates smart album orders them.
    public func fetchDuplicates(matching query: AssetQuery? = nil) async throws(PhotoLibraryError) -> [[String]] {
        let reply: FetchDuplicatesReply = try await call(
            LibraryMethod.fetchDuplicates, FetchDuplicatesParameters(query: query))
        return reply.groups
    }
}
