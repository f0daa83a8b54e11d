extension PhotoLibrary {
    /// Collects the changes of one `performChanges` call; objects it creates are named by placeholders
    /// (`@album1`) that later changes of the same call may use wherever an id goes.
    ///
    /// ```swift
    /// var changes = PhotoLibrary.ChangeBuilder()
    /// let album = changes.createAlbum(title: "Holidays")
    /// changes.addAssets(assetIds, to: album)
    /// let albumId = try await library.performChanges(changes).created[album]
    /// ```
    public struct ChangeBuilder: Sendable, Hashable {
        /// The wire changes collected so far, in order.
        public private(set) var requests: [ChangeRequest] = []
        private var placeholderCount = 0

        public init() {}

        // MARK: Assets

        /// Adds the file at `path` (absolute, copied into the library) as a new asset; returns its placeholder.
        public mutating func createAsset(fromFile path: String) -> String {
            let placeholder = makePlaceholder("asset")
            requests.append(ChangeRequest(op: "createAsset", path: path, placeholder: placeholder))
            return placeholder
        }

        /// Adds a new asset made of `files` (each a path this process's user can read or an upload it sent, the first
        /// its photo, video or audio), with the id `id` when given (a lowercase UUID); returns its placeholder.
        public mutating func createAsset(from files: [NewAssetFile], id: String? = nil) -> String {
            let placeholder = makePlaceholder("asset")
            let request =
                files.count == 1 && files[0].type == nil
                ? ChangeRequest(
                    op: "createAsset", path: files[0].path, placeholder: placeholder, id: id, upload: files[0].upload)
                : ChangeRequest(op: "createAsset", placeholder: placeholder, id: id, resources: files)
            requests.append(request)
            return placeholder
        }

        /// Marks the assets as favorites, or unmarks them.
        public mutating func setFavorite(_ isFavorite: Bool, for assetIds: [String]) {
            requests += assetIds.map { ChangeRequest(op: "updateAsset", target: $0, isFavorite: isFavorite) }
        }

        /// Hides the assets, or shows them again.
        public mutating func setHidden(_ isHidden: Bool, for assetIds: [String]) {
            requests += assetIds.map { ChangeRequest(op: "updateAsset", target: $0, isHidden: isHidden) }
        }

        /// Sets the asset's creation date; nil clears it.
        public mutating func setCreationDate(_ date: Timestamp?, for assetId: String) {
            let update: FieldUpdate<Timestamp> = date.map { .set($0) } ?? .cleared
            requests.append(ChangeRequest(op: "updateAsset", target: assetId, creationDate: update))
        }

        /// Sets the asset's location; nil clears it.
        public mutating func setLocation(_ location: Location?, for assetId: String) {
            let update: FieldUpdate<Location> = location.map { .set($0) } ?? .cleared
            requests.append(ChangeRequest(op: "updateAsset", target: assetId, location: update))
        }

        /// Gives the assets a rating: 1 to 5 stars, 0 for none, -1 to reject them.
        public mutating func setRating(_ rating: Int, for assetIds: [String]) {
            requests += assetIds.map { ChangeRequest(op: "updateAsset", target: $0, rating: rating) }
        }

        /// Replaces the asset's keywords (a hierarchy's levels joined by `|`: `Places|France|Paris`).
        public mutating func setKeywords(_ keywords: [String], for assetId: String) {
            requests.append(ChangeRequest(op: "updateAsset", target: assetId, keywords: keywords))
        }

        /// Adds keywords to the assets and removes others, keeping the rest of their keywords.
        public mutating func updateKeywords(
            of assetIds: [String], adding added: [String] = [], removing removed: [String] = []
        ) {
            requests += assetIds.map {
                ChangeRequest(
                    op: "updateAsset", target: $0, addKeywords: added.isEmpty ? nil : added,
                    removeKeywords: removed.isEmpty ? nil : removed)
            }
        }

        /// Sets the asset's title; nil or empty text clears it.
        public mutating func setTitle(_ title: String?, for assetId: String) {
            requests.append(ChangeRequest(op: "updateAsset", target: assetId, title: title ?? ""))
        }

        /// Sets the asset's caption; nil or empty text clears it.
        public mutating func setCaption(_ caption: String?, for assetId: String) {
            requests.append(ChangeRequest(op: "updateAsset", target: assetId, caption: caption ?? ""))
        }

        /// Moves the assets to Recently Deleted, or purges them at once when `permanently`.
        public mutating func deleteAssets(_ assetIds: [String], permanently: Bool = false) {
            requests.append(ChangeRequest(op: "deleteAssets", ids: assetIds, permanently: permanently ? true : nil))
        }

        /// Brings the assets back from Recently Deleted, into every album they were in.
        public mutating func restoreAssets(_ assetIds: [String]) {
            requests.append(ChangeRequest(op: "restoreAssets", ids: assetIds))
        }

        /// Merges members of one group of duplicates (`fetchDuplicates`) as Photos does: the best keeps what each
        /// had (albums, keywords, favorite, the highest rating, a title, caption and location, the earliest date), the
        /// others go to Recently Deleted.
        public mutating func mergeDuplicates(_ assetIds: [String]) {
            requests.append(ChangeRequest(op: "mergeDuplicates", ids: assetIds))
        }

        /// Keeps an edit of the photo beside its original: the rendered file at `renderedPath` (a JPEG, PNG or HEIC
        /// the daemon copies into the library) made as `adjustment` says.
        public mutating func editAsset(_ assetId: String, renderedPath: String, adjustment: Adjustment) {
            requests.append(
                ChangeRequest(op: "editAsset", target: assetId, renderedPath: renderedPath, adjustment: adjustment))
        }

        /// Has the daemon render a basic edit (turn, mirror, crop, exposure) of the photo and keep it beside the original.
        public mutating func editAsset(_ assetId: String, basic adjustment: BasicAdjustment) {
            requests.append(ChangeRequest(op: "editAsset", target: assetId, adjustment: adjustment.adjustment))
        }

        /// Drops the photo's edit: the original is its current version again.
        public mutating func revertAsset(_ assetId: String) {
            requests.append(ChangeRequest(op: "revertAsset", target: assetId))
        }

        // MARK: Albums and folders

        /// Creates an album, inside the folder `parent` if given; returns its placeholder.
        public mutating func createAlbum(title: String, in parent: String? = nil, id: String? = nil) -> String {
            let placeholder = makePlaceholder("album")
            requests.append(
                ChangeRequest(op: "createAlbum", placeholder: placeholder, title: title, parent: parent, id: id))
            return placeholder
        }

        /// Creates a folder of albums, inside the folder `parent` if given; returns its placeholder.
        public mutating func createFolder(title: String, in parent: String? = nil, id: String? = nil) -> String {
            let placeholder = makePlaceholder("folder")
            requests.append(
                ChangeRequest(op: "createFolder", placeholder: placeholder, title: title, parent: parent, id: id))
            return placeholder
        }

        /// Renames an album or folder.
        public mutating func renameCollection(_ collectionId: String, to title: String) {
            requests.append(ChangeRequest(op: "updateCollection", target: collectionId, title: title))
        }

        /// Deletes albums or folders; their assets stay in the library.
        public mutating func deleteCollections(_ collectionIds: [String]) {
            requests.append(ChangeRequest(op: "deleteCollections", ids: collectionIds))
        }

        /// Appends the assets to an album.
        public mutating func addAssets(_ assetIds: [String], to album: String) {
            requests.append(ChangeRequest(op: "addAssets", target: album, ids: assetIds))
        }

        /// Inserts the assets into an album, each at the matching index of the new order.
        public mutating func insertAssets(_ assetIds: [String], at indexes: [Int], in album: String) {
            requests.append(ChangeRequest(op: "insertAssets", target: album, ids: assetIds, indexes: indexes))
        }

        /// Removes the assets from an album; they stay in the library.
        public mutating func removeAssets(_ assetIds: [String], from album: String) {
            requests.append(ChangeRequest(op: "removeAssets", target: album, ids: assetIds))
        }

        /// Moves the album's assets at `indexes` so that they start at `toIndex`.
        public mutating func moveAssets(at indexes: [Int], to toIndex: Int, in album: String) {
            requests.append(ChangeRequest(op: "moveAssets", target: album, indexes: indexes, toIndex: toIndex))
        }

        /// Puts albums or folders into a folder.
        public mutating func addChildCollections(_ collectionIds: [String], to folder: String) {
            requests.append(ChangeRequest(op: "addChildCollections", target: folder, ids: collectionIds))
        }

        /// Takes albums or folders out of a folder, to the top level.
        public mutating func removeChildCollections(_ collectionIds: [String], from folder: String) {
            requests.append(ChangeRequest(op: "removeChildCollections", target: folder, ids: collectionIds))
        }

        /// Moves the folder's children at `indexes` so that they start at `toIndex`.
        public mutating func moveChildCollections(at indexes: [Int], to toIndex: Int, in folder: String) {
            requests.append(
                ChangeRequest(op: "moveChildCollections", target: folder, indexes: indexes, toIndex: toIndex))
        }

        /// A placeholder not used before in this builder: `@album1`, `@asset2`.
        private mutating func makePlaceholder(_ kind: String) -> String {
            placeholderCount += 1
            return "@\(kind)\(placeholderCount)"
        }
    }
}
