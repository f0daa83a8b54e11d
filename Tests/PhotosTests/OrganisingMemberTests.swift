import Foundation
import Photos
import TestSupport
import Testing

/// The top level of the user's collections, called as app code does.
extension PhotosModuleTests {
    @Test func theTopLevelRequestTakesAlbumsOutOfFoldersAndGivesThemBack() async throws {
        _ = try await PhotosDaemon.shared()
        var folderPlaceholder: PHObjectPlaceholder?
        var albumPlaceholder: PHObjectPlaceholder?
        try PHPhotoLibrary.shared().performChangesAndWait {
            let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips \(UUID())")
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Rome \(UUID())")
            folder.addChildCollections([album.placeholderForCreatedAssetCollection] as NSArray)
            (folderPlaceholder, albumPlaceholder) = (
                folder.placeholderForCreatedCollectionList, album.placeholderForCreatedAssetCollection
            )
        }
        let folderId = try #require(folderPlaceholder?.localIdentifier)
        let albumId = try #require(albumPlaceholder?.localIdentifier)
        let folder = try #require(
            PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folderId], options: nil).firstObject)
        let album = try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumId], options: nil).firstObject)
        func topLevel() -> [String] {
            var ids: [String] = []
            PHCollectionList.fetchTopLevelUserCollections(with: nil).enumerateObjects { collection, _, _ in
                ids.append(collection.localIdentifier)
            }
            return ids
        }
        func children() -> Int { PHCollection.fetchCollections(in: folder, options: nil).count }
        #expect(topLevel().contains(folderId) && !topLevel().contains(albumId))

        // Added to the top level: out of its folder.
        try PHPhotoLibrary.shared().performChangesAndWait {
            let top = PHCollectionListChangeRequest(
                forTopLevelCollectionListUserCollections: PHCollectionList.fetchTopLevelUserCollections(with: nil))
            top?.addChildCollections([album] as NSArray)
        }
        #expect(topLevel().contains(albumId))
        #expect(children() == 0)

        // Removed from the top level and added to the folder in one block, in the order apps write it.
        try PHPhotoLibrary.shared().performChangesAndWait {
            let top = PHCollectionListChangeRequest(
                forTopLevelCollectionListUserCollections: PHCollectionList.fetchTopLevelUserCollections(with: nil))
            top?.removeChildCollections([album] as NSArray)
            PHCollectionListChangeRequest(for: folder)?.addChildCollections([album] as NSArray)
        }
        #expect(!topLevel().contains(albumId))
        #expect(children() == 1)

        // An album created into the folder and brought to the top level in the same block: the block's own changes
        // tell where it is.
        var created: PHObjectPlaceholder?
        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Paris \(UUID())")
            PHCollectionListChangeRequest(for: folder)?
                .addChildCollections([request.placeholderForCreatedAssetCollection] as NSArray)
            PHCollectionListChangeRequest(
                forTopLevelCollectionListUserCollections: PHCollectionList.fetchTopLevelUserCollections(with: nil))?
                .insertChildCollections(
                    [request.placeholderForCreatedAssetCollection] as NSArray, at: IndexSet(integer: 0))
            created = request.placeholderForCreatedAssetCollection
        }
        #expect(topLevel().first == created?.localIdentifier)
        #expect(children() == 1)
    }
}
