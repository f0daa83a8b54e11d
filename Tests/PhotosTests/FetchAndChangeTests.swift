import Foundation
import Photos
import PhotoLibrary
import Testing
import TestSupport

/// PhotoKit code run against the real daemon. One serialized suite: the modules keep one library per process.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct PhotosModuleTests {}

extension PhotosModuleTests {
    @Test func fetchResultsMakeObjectsOnDemandInTheLibrarysOrder() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let assets = try PhotosDaemon.importAssets(try PhotosDaemon.photos(7, in: directory, year: 2011))
        #expect(assets.count == 7)

        let options = PHFetchOptions()
        options.predicate = PHPredicate(format: "creationDate >= %@ AND creationDate < %@",
                                        Date(timeIntervalSince1970: 1_293_840_000) as NSDate,   // 2011-01-01
                                        Date(timeIntervalSince1970: 1_325_376_000) as NSDate)   // 2012-01-01
        options.sortDescriptors = [PHSortDescriptor(key: "creationDate", ascending: false)]
        let result = PHAsset.fetchAssets(with: options)
        #expect(result.count == 7)
        #expect(identifiers(result) == assets.reversed().map(\.localIdentifier))
        #expect(result.firstObject == assets.last)
        #expect(result.lastObject == assets.first)
        #expect(result[2] == assets[4])
        #expect(result.index(of: assets[0]) == 6)
        #expect(result.contains(assets[3]))
        #expect(result.objects(at: IndexSet([0, 6])).map(\.localIdentifier) == [assets[6], assets[0]].map(\.localIdentifier))
        #expect(result.countOfAssets(with: .image) == 7 && result.countOfAssets(with: .video) == 0)

        var visited: [Int] = []
        result.enumerateObjects { _, index, stop in
            visited.append(index)
            if index == 2 { stop.pointee = true }
        }
        #expect(visited == [0, 1, 2])

        let first = result.object(at: 6)
        #expect(first.mediaType == .image && first.pixelWidth == 96 && first.pixelHeight == 64)
        #expect(first.creationDate == ISO8601DateFormatter().date(from: "2011-03-01T10:00:00+01:00"))
        #expect(!first.isFavorite && !first.isHidden && first.location == nil)

        let limited = PHFetchOptions()
        limited.predicate = options.predicate
        limited.fetchLimit = 3
        #expect(PHAsset.fetchAssets(with: .image, options: limited).count == 3)
        #expect(PHAsset.fetchAssets(with: .video, options: options).count == 0)
    }

    @Test func placeholdersNameWhatAChangeBlockCreatesAcrossAlbumsAndFolders() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let url = try PhotosDaemon.photos(1, in: directory, year: 2012)[0]
        var folder: PHObjectPlaceholder?, album: PHObjectPlaceholder?, asset: PHObjectPlaceholder?
        try PHPhotoLibrary.shared().performChangesAndWait {
            let folderRequest = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips \(UUID())")
            let albumRequest = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Rome")
            let assetRequest = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)!
            assetRequest.isFavorite = true
            folder = folderRequest.placeholderForCreatedCollectionList
            album = albumRequest.placeholderForCreatedAssetCollection
            asset = assetRequest.placeholderForCreatedAsset
            albumRequest.addAssets([asset!] as NSArray)
            folderRequest.addChildCollections([album!])
        }
        let folderId = try #require(folder?.localIdentifier), albumId = try #require(album?.localIdentifier)
        let assetId = try #require(asset?.localIdentifier)
        #expect(![folderId, albumId, assetId].contains { $0.hasPrefix("@") })

        let folders = PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folderId], options: nil)
        let list = try #require(folders.firstObject)
        #expect(list.canContainCollections && !list.canContainAssets)
        let children = PHCollection.fetchCollections(in: list, options: nil)
        #expect(identifiers(children) == [albumId])
        let albumObject = try #require(children.firstObject as? PHAssetCollection)
        #expect(albumObject.localizedTitle == "Rome" && albumObject.assetCollectionType == .album
                && albumObject.assetCollectionSubtype == .albumRegular && albumObject.estimatedAssetCount == 1)
        let inAlbum = PHAsset.fetchAssets(in: albumObject, options: nil)
        #expect(identifiers(inAlbum) == [assetId] && inAlbum.firstObject?.isFavorite == true)
        #expect(identifiers(PHCollectionList.fetchTopLevelUserCollections(with: nil)).contains(folderId))
        #expect(!identifiers(PHCollectionList.fetchTopLevelUserCollections(with: nil)).contains(albumId))
        let containing = PHAssetCollection.fetchAssetCollectionsContaining(inAlbum.firstObject!, with: .album, options: nil)
        #expect(identifiers(containing) == [albumId])

        // A change request for an existing album, and the collection helpers that take fetch results.
        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHAssetCollectionChangeRequest(for: albumObject, assets: inAlbum)!
            request.title = "Roma"
            request.removeAssets(inAlbum)
        }
        let renamed = try #require(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumId], options: nil).firstObject)
        #expect(renamed.localizedTitle == "Roma" && renamed.estimatedAssetCount == 0)
        try PHPhotoLibrary.shared().performChangesAndWait {
            PHAssetCollectionChangeRequest.deleteAssetCollections([renamed])
            PHCollectionListChangeRequest.deleteCollectionLists(folders)
        }
        #expect(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumId], options: nil).count == 0)
    }

    @Test func whatTheDaemonRefusesComesBackAsAnError() async throws {
        _ = try await PhotosDaemon.shared()
        let library = PHPhotoLibrary.shared()
        let smart = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites, options: nil)
        let favorites = try #require(smart.firstObject)
        #expect(favorites.assetCollectionSubtype == .smartAlbumFavorites && favorites.assetCollectionType == .smartAlbum)
        #expect(PHAssetCollectionChangeRequest(for: favorites) == nil)

        let unknown = PHAsset.fetchAssets(withLocalIdentifiers: ["no-such-asset"], options: nil)
        #expect(unknown.count == 0)
        let missingFile = URL(fileURLWithPath: "/nonexistent/photo.jpg")
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: missingFile)
            }
        }
        let directory = try TemporaryDirectory()
        let url = try PhotosDaemon.photos(1, in: directory, year: 2013)[0]
        let asset = try #require(try PhotosDaemon.importAssets([url]).first)
        do {
            try library.performChangesAndWait {
                PHAssetChangeRequest(for: asset).isFavorite = true
                PHAssetCollectionChangeRequest.deleteAssetCollections([favorites])
            }
            Issue.record("deleting a smart album was accepted")
        } catch let error as PHPhotosError {
            #expect(error.code == .changeNotSupported && error.errorCode == 3300, "\(error)")
        }
        // All or nothing: the favorite of the refused block did not commit.
        #expect(PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject?.isFavorite == false)

        // A predicate the daemon cannot parse gives an empty result, not a crash.
        let bad = PHFetchOptions()
        bad.predicate = PHPredicate(format: "pixelWidth >>> 3")
        #expect(PHAsset.fetchAssets(with: bad).count == 0)

        // performChanges reports through its completion handler.
        let failed = Outcome()
        library.performChanges({
            PHAssetChangeRequest.deleteAssets([staleAsset("missing-id")] as NSArray)
        }, completionHandler: { success, error in failed.set(success, error) })
        #expect(try await eventually { failed.isSet })
        #expect(failed.success == false && (failed.error as? PHPhotosError)?.code == .identifierNotFound)

        // A change request outside a change block does nothing and does not crash.
        PHAssetChangeRequest(for: asset).isHidden = true
        #expect(PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject?.isHidden == false)
    }
}

/// What a completion handler was called with.
final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Bool, (any Error)?)?

    func set(_ success: Bool, _ error: (any Error)?) { lock.withLock { value = (success, error) } }
    var isSet: Bool { lock.withLock { value != nil } }
    var success: Bool? { lock.withLock { value?.0 } }
    var error: (any Error)? { lock.withLock { value?.1 } }
}

/// An asset object for an identifier the library does not have, as a program holding a deleted asset has.
func staleAsset(_ identifier: String) -> PHAsset {
    PHAsset(Asset(id: identifier, mediaType: .image, pixelWidth: 1, pixelHeight: 1, creationDate: nil, modificationDate: nil,
                  addedDate: Timestamp(secondsSince1970: 0), location: nil, originalFilename: "gone.jpg", fileSize: 1))
}
