import Foundation
import PhotoLibrary
import Photos
import TestSupport
import Testing

/// The top level of the user's collections and iOS 27's photographer's metadata, called as app code does.
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

    @Test func photographersStarsKeywordsAndCaptionReachTheSidecar() async throws {
        let daemon = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let url = try #require(try PhotosDaemon.photos(1, in: directory, year: 2013).first)
        let asset = try #require(try PhotosDaemon.importAssets([url]).first)
        #expect(asset.rating == .unset)
        #expect(asset.extendedMetadata.keywords.isEmpty && asset.extendedMetadata.caption == nil)
        #expect(asset.extendedMetadata.originalFilename == url.lastPathComponent)

        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHAssetChangeRequest(for: asset)
            request.rating = .four
            request.addKeyword("cat")
            request.addKeyword("Places|Paris")
            request.addKeyword("cat")
            request.removeKeyword("dog")
            request.caption = "On the sofa"
            #expect(request.rating == .four && request.caption == "On the sofa")
        }
        let rated = try #require(
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject)
        #expect(rated.rating == .four && rated.rating.rawValue == 4)
        #expect(Set(rated.extendedMetadata.keywords) == ["cat", "Places|Paris"])
        #expect(rated.extendedMetadata.caption == "On the sofa")

        let options = PHFetchOptions()
        options.predicate = PHPredicate(format: "rating >= %d AND ANY keywords == %@", 4, "cat")
        options.prefetchAssetExtendedMetadata = true
        var found: [String] = []
        PHAsset.fetchAssets(with: options).enumerateObjects { asset, _, _ in found.append(asset.localIdentifier) }
        #expect(found.contains(asset.localIdentifier))

        // The same stars reach darktable: the sidecar beside the library's file says 4.
        let library = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        let stored = try #require(
            try await library.fetchAssets(matching: AssetQuery(ids: [asset.localIdentifier]), includeResources: true)
                .assets.first?.resources?.first?.path)
        let sidecarRating = try await eventually(timeout: .seconds(30)) { () -> String? in
            guard FileManager.default.fileExists(atPath: stored + ".xmp") else { return nil }
            let rating = try runTool("/usr/bin/exiftool", ["-s3", "-XMP-xmp:Rating", stored + ".xmp"]).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return rating == "4" ? rating : nil
        }
        #expect(sidecarRating == "4")

        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHAssetChangeRequest(for: rated)
            request.removeKeyword("cat")
            request.caption = nil
            request.rating = .unset
        }
        let cleared = try #require(
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject)
        #expect(cleared.rating == .unset)
        #expect(cleared.extendedMetadata.keywords == ["Places|Paris"] && cleared.extendedMetadata.caption == nil)

        // A photo darktable rejected (−1) has no stars in Apple's terms.
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setRating(-1, for: [asset.localIdentifier])
        _ = try await library.performChanges(changes)
        await library.close()
        let rejected = try #require(
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject)
        #expect(rejected.rating == .unset)
    }
}
