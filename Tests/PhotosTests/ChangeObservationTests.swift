import Foundation
@testable import Photos
import PhotoLibrary
import Testing
import TestSupport

extension PhotosModuleTests {
    /// Several held fetch results, random change blocks: applying every `PHFetchResultChangeDetails` to what was shown
    /// gives what a fresh fetch returns, and `fetchResultAfterChanges` holds the same.
    @Test func appliedChangeDetailsAlwaysMatchAFreshFetch() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        var assets = try PhotosDaemon.importAssets(try PhotosDaemon.photos(10, in: directory, year: 2014))
        let observer = RecordingObserver()
        PHPhotoLibrary.shared().register(observer)
        defer { PHPhotoLibrary.shared().unregisterChangeObserver(observer) }

        var folder: PHObjectPlaceholder?, albums: [PHObjectPlaceholder] = []
        try PHPhotoLibrary.shared().performChangesAndWait {
            let folderRequest = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Property \(UUID())")
            for title in ["One", "Two"] {
                let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                albums.append(request.placeholderForCreatedAssetCollection)
            }
            folderRequest.addChildCollections(albums)
            folder = folderRequest.placeholderForCreatedCollectionList
        }
        let albumObjects = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: albums.map(\.localIdentifier), options: nil)
        let folderObject = try #require(PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folder!.localIdentifier],
                                                                              options: nil).firstObject)
        let year2014 = PHFetchOptions()
        year2014.predicate = PHPredicate(format: "creationDate >= %@", "2014-01-01T00:00:00Z")
        let newestFirst = PHFetchOptions()
        newestFirst.predicate = year2014.predicate
        newestFirst.sortDescriptors = [PHSortDescriptor(key: "creationDate", ascending: false)]
        newestFirst.includeHiddenAssets = true
        let favorites = PHFetchOptions()
        favorites.predicate = PHPredicate(format: "isFavorite == YES AND creationDate >= %@", "2014-01-01T00:00:00Z")

        let makeAssetResults: [() -> PHFetchResult<PHAsset>] = [
            { PHAsset.fetchAssets(with: year2014) },
            { PHAsset.fetchAssets(with: newestFirst) },
            { PHAsset.fetchAssets(with: favorites) },
            { PHAsset.fetchAssets(in: albumObjects[0], options: nil) },
            { PHAsset.fetchAssets(in: albumObjects[1], options: nil) },
        ]
        let makeCollectionResults: [() -> PHFetchResult<PHCollection>] = [
            { PHCollection.fetchCollections(in: folderObject, options: nil) },
        ]
        var heldAssets = makeAssetResults.map { $0() }
        var heldCollections = makeCollectionResults.map { $0() }
        var shownAssets = heldAssets.map(identifiers)
        var shownCollections = heldCollections.map(identifiers)
        _ = observer.take()

        var generator = SystemRandomNumberGenerator()
        var committed = 0
        for round in 0..<60 {
            let asset = assets.randomElement(using: &generator)!
            let album = albumObjects[Int.random(in: 0..<2, using: &generator)]
            let albumContent = PHAsset.fetchAssets(in: album, options: nil)
            var newFile: URL?
            if round % 10 == 9 { newFile = try PhotosDaemon.photos(1, in: directory, year: 2014)[0] }
            // Choice 8 deletes; keep a few assets so that every round has one to change.
            let choice = Int.random(in: 0..<(assets.count > 3 ? 9 : 8), using: &generator)
            do {
                try PHPhotoLibrary.shared().performChangesAndWait {
                    if let newFile {
                        _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: newFile)
                        return
                    }
                    switch choice {
                    case 0: PHAssetChangeRequest(for: asset).isFavorite = Bool.random()
                    case 1: PHAssetChangeRequest(for: asset).isHidden = Bool.random()
                    case 2: PHAssetChangeRequest(for: asset).creationDate =
                        Date(timeIntervalSince1970: 1_400_000_000 + Double(Int.random(in: 0..<30_000_000)))
                    case 3: PHAssetCollectionChangeRequest(for: album)!.addAssets([asset])
                    case 4: PHAssetCollectionChangeRequest(for: album)!.removeAssets([asset])
                    case 5 where albumContent.count > 1:
                        PHAssetCollectionChangeRequest(for: album, assets: albumContent)!
                            .moveAssets(at: IndexSet(integer: albumContent.count - 1), to: 0)
                    case 6: PHAssetCollectionChangeRequest(for: album)!.insertAssets([asset], at: IndexSet(integer: 0))
                    case 7: PHCollectionListChangeRequest(for: folderObject)!.moveChildCollections(at: IndexSet(integer: 1), to: 0)
                    default: PHAssetChangeRequest.deleteAssets([asset])
                    }
                }
            } catch let refused as PHPhotosError where [.invalidResource, .changeNotSupported, .identifierNotFound].contains(refused.code) {
                continue   // e.g. an album move of an index it does not have: nothing committed
            }
            committed += 1
            if choice == 8 && newFile == nil { assets.removeAll { $0 == asset } }
            let changes = try await observer.take(atLeast: 1)
            try #require(changes.count == 1, "one PHChange per transaction")
            let change = changes[0]
            for index in heldAssets.indices {
                if let details = change.changeDetails(for: heldAssets[index]) {
                    shownAssets[index] = apply(details, to: shownAssets[index])
                    heldAssets[index] = details.fetchResultAfterChanges
                }
                let fresh = identifiers(makeAssetResults[index]())
                #expect(shownAssets[index] == fresh, "asset result \(index), round \(round), change \(choice)")
                #expect(identifiers(heldAssets[index]) == fresh, "asset result \(index) after changes, round \(round)")
            }
            for index in heldCollections.indices {
                if let details = change.changeDetails(for: heldCollections[index]) {
                    shownCollections[index] = apply(details, to: shownCollections[index])
                    heldCollections[index] = details.fetchResultAfterChanges
                }
                #expect(shownCollections[index] == identifiers(makeCollectionResults[index]()), "round \(round)")
            }
        }
        #expect(committed > 30, "only \(committed) of 60 change blocks committed")
    }

    /// A change inside an album inside a folder is reported for the top-level result that holds the folder.
    @Test func aChangeInsideAFolderReachesTheTopLevelResult() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let asset = try #require(try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory, year: 2015)).first)
        var folder: PHObjectPlaceholder?, album: PHObjectPlaceholder?
        try PHPhotoLibrary.shared().performChangesAndWait {
            let folderRequest = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Outer \(UUID())")
            let albumRequest = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Inner")
            folderRequest.addChildCollections([albumRequest.placeholderForCreatedAssetCollection])
            folder = folderRequest.placeholderForCreatedCollectionList
            album = albumRequest.placeholderForCreatedAssetCollection
        }
        let observer = RecordingObserver()
        PHPhotoLibrary.shared().register(observer)
        defer { PHPhotoLibrary.shared().unregisterChangeObserver(observer) }
        let topLevel = PHCollectionList.fetchTopLevelUserCollections(with: nil)
        let folderIndex = try #require(identifiers(topLevel).firstIndex(of: folder!.localIdentifier))
        let albumObject = try #require(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [album!.localIdentifier],
                                                                                options: nil).firstObject)
        try PHPhotoLibrary.shared().performChangesAndWait {
            PHAssetCollectionChangeRequest(for: albumObject)!.addAssets([asset])
        }
        // The creation block's own change may arrive after `register`: wait for the one that touches the result.
        let change = try await observer.first { $0.changeDetails(for: topLevel) != nil }
        let details = try #require(change.changeDetails(for: topLevel))
        #expect(details.hasIncrementalChanges)
        #expect(details.changedIndexes == IndexSet(integer: folderIndex))
        #expect(details.changedIndexesBefore == IndexSet(integer: folderIndex))
        #expect(details.changedObjects.map(\.localIdentifier) == [folder!.localIdentifier])
        let objectDetails = try #require(change.changeDetails(for: albumObject))
        #expect(objectDetails.objectAfterChanges?.estimatedAssetCount == 1 && !objectDetails.objectWasDeleted)
    }

    /// When the daemon is killed and started again, the module opens its stream again and reports what changed.
    @Test func afterTheDaemonRestartsHeldResultsCatchUp() async throws {
        let daemon = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let assets = try PhotosDaemon.importAssets(try PhotosDaemon.photos(3, in: directory, year: 2016))
        let observer = RecordingObserver()
        PHPhotoLibrary.shared().register(observer)
        defer { PHPhotoLibrary.shared().unregisterChangeObserver(observer) }
        let options = PHFetchOptions()
        options.predicate = PHPredicate(format: "isFavorite == YES AND creationDate >= %@ AND creationDate < %@",
                                        "2016-01-01T00:00:00Z", "2017-01-01T00:00:00Z")
        var held = PHAsset.fetchAssets(with: options)
        var shown = identifiers(held)
        #expect(shown.isEmpty)

        try await daemon.kill9()
        try await daemon.start()
        // The change goes in through another client, racing the module's reconnection: either way it is reported.
        let client = try await PhotoLibrary.connect(socketPath: daemon.socketPath)
        var changes = PhotoLibrary.ChangeBuilder()
        changes.setFavorite(true, for: [assets[1].localIdentifier])
        _ = try await client.performChanges(changes)
        await client.close()

        _ = try await eventually {
            for change in observer.take() {
                if let details = change.changeDetails(for: held) {
                    shown = apply(details, to: shown)
                    held = details.fetchResultAfterChanges
                }
            }
            return shown == [assets[1].localIdentifier]
        }
        #expect(shown == [assets[1].localIdentifier])
        #expect(identifiers(held) == [assets[1].localIdentifier])
        #expect(identifiers(PHAsset.fetchAssets(with: options)) == [assets[1].localIdentifier])
    }
}
