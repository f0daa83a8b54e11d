import LibraryStore
import PhotoModel

/// Where assets' images come from: each asset's file, edit and kind (`AssetImageSource`), read from the library and
/// remembered while no committed change touches the asset, so that a cached image is served without a read.
package final class AssetImageSources: Sendable {
    private let database: LibraryDatabase
    private let memo: AssetSourceMemo

    package init(database: LibraryDatabase) {
        self.database = database
        memo = AssetSourceMemo(feed: database.feed)
    }

    /// The source of `assetId`; `ImageError.notFound` when the library has no such asset.
    func source(of assetId: String) async throws -> AssetImageSource {
        if let known = memo.source(of: assetId) {
            return known
        }
        let generation = memo.generation
        guard let asset = try await assets([assetId]).first else { throw ImageError.notFound(assetId: assetId) }
        let source = try AssetImageSource(
            asset, edit: asset.hasAdjustments ? try await database.edits.edit(of: assetId) : nil)
        memo.remember(source, readAt: generation)
        return source
    }

    /// The sources of those of `assetIds` that exist and have images, with their edits.
    func sources(of assetIds: [String]) async throws -> [AssetImageSource] {
        var sources: [AssetImageSource] = []
        for asset in try await assets(assetIds) {
            let edit = asset.hasAdjustments ? try await database.edits.edit(of: asset.id) : nil
            if let source = try? AssetImageSource(asset, edit: edit) { sources.append(source) }
        }
        return sources
    }

    /// The assets among `ids` that exist, with their resources, hidden and trashed ones included.
    private func assets(_ ids: [String]) async throws -> [Asset] {
        try await database.fetchAssets(
            AssetQuery(ids: ids, includeHidden: true, includeTrashed: true, includeAllBurstAssets: true),
            pageSize: ids.count, includeResources: true
        ).assets
    }
}
