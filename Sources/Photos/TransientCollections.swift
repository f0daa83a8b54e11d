import Foundation
import PhotoLibrary

/// PhotoKit's transient collections: albums and folders that live only in the program.
extension PHAssetCollection {
    /// A collection of the assets of `fetchResult` that lives only in this program, as PhotoKit's transient
    /// collections: `fetchAssets(in:options:)` gives those assets, in that order.
    public class func transientAssetCollection(withAssetFetchResult fetchResult: PHFetchResult<PHAsset>,
                                               title: String?) -> PHAssetCollection {
        var assets: [PHAsset] = []
        fetchResult.enumerateObjects { asset, _, _ in assets.append(asset) }
        return transientAssetCollection(with: assets, title: title)
    }

    /// A collection of `assets` that lives only in this program.
    public class func transientAssetCollection(with assets: [PHAsset], title: String?) -> PHAssetCollection {
        let dates = assets.compactMap(\.creationDate)
        return PHAssetCollection(transient: AssetCollection(
            id: UUID().uuidString.lowercased(), kind: .album, subtype: .albumRegular, title: title ?? "",
            assetCount: assets.count, startDate: dates.min().map(Timestamp.init), endDate: dates.max().map(Timestamp.init),
            parentId: nil), members: assets)
    }
}

extension PHCollectionList {
    /// A folder of `collections` that lives only in this program: `PHCollection.fetchCollections(in:options:)` gives
    /// them, in that order.
    public class func transientCollectionList(with collections: [PHCollection], title: String?) -> PHCollectionList {
        PHCollectionList(transient: AssetCollection(
            id: UUID().uuidString.lowercased(), kind: .folder, subtype: .folderRegular, title: title ?? "", assetCount: nil,
            startDate: nil, endDate: nil, parentId: nil), members: collections)
    }
}
