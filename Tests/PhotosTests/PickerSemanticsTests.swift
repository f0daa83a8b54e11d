import Foundation
@testable import Photos
import Testing
import TestSupport

/// What photo pickers rely on: Apple's semantics for collections, fetches and change requests.
extension PhotosModuleTests {
    @Test func pickersSeeTheSmartAlbumsAppleShowsAndHiddenAssetsByIdentifier() async throws {
        _ = try await PhotosDaemon.shared()
        let all = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil)
        var subtypes: [PHAssetCollectionSubtype] = []
        all.enumerateObjects { album, _, _ in subtypes.append(album.assetCollectionSubtype) }
        #expect(subtypes.contains(.smartAlbumUserLibrary) && !subtypes.contains(.smartAlbumRecentlyDeleted))
        let regular = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .albumRegular, options: nil)
        #expect(regular.count == all.count)

        let directory = try TemporaryDirectory()
        let asset = try #require(try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory, year: 2018)).first)
        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHAssetChangeRequest(for: asset)
            // Getters start from the asset's values: this toggles.
            request.isHidden = !request.isHidden
            #expect(request.isHidden && request.creationDate == asset.creationDate)
        }
        #expect(PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject?.isHidden == true)
        #expect(asset.sourceType == .typeUserLibrary && asset.canPerform(.content) && asset.canPerform(.properties))
        let noneOfMine = PHFetchOptions()
        noneOfMine.includeAssetSourceTypes = [.typeCloudShared]
        #expect(PHAsset.fetchAssets(with: noneOfMine).count == 0)
    }

    @Test func transientCollectionsAndCompoundPredicatesWork() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let assets = try PhotosDaemon.importAssets(try PhotosDaemon.photos(3, in: directory, year: 2019))
        let picked = PHAssetCollection.transientAssetCollection(with: [assets[2], assets[0]], title: "Picked")
        #expect(picked.localizedTitle == "Picked" && picked.estimatedAssetCount == 2)
        #expect(identifiers(PHAsset.fetchAssets(in: picked, options: nil)) == [assets[2], assets[0]].map(\.localIdentifier))
        #expect(PHAssetCollectionChangeRequest(for: picked) == nil)
        let list = PHCollectionList.transientCollectionList(with: [picked], title: "Picks")
        #expect(identifiers(PHCollection.fetchCollections(in: list, options: nil)) == [picked.localIdentifier])

        let options = PHFetchOptions()
        options.predicate = PHCompoundPredicate(andPredicateWithSubpredicates: [
            PHPredicate(format: "mediaType == %d", PHAssetMediaType.image.rawValue),
            PHCompoundPredicate(notPredicateWithSubpredicate: PHPredicate(format: "isFavorite == YES")),
            PHCompoundPredicate(orPredicateWithSubpredicates: [
                PHPredicate(format: "pixelWidth == %d", 96),
                PHPredicate(format: "creationDate >= %@ AND creationDate < %@", Date(timeIntervalSince1970: 1_546_300_800) as NSDate,
                            Date(timeIntervalSince1970: 1_577_836_800) as NSDate),
            ]),
        ])
        #expect(Set(identifiers(PHAsset.fetchAssets(with: options))).isSuperset(of: assets.map(\.localIdentifier)))
    }

    @Test func folderChangesCountInTheChildrenGiven() async throws {
        _ = try await PhotosDaemon.shared()
        var folder: PHObjectPlaceholder?, albums: [PHObjectPlaceholder] = []
        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Folder \(UUID())")
            albums = (0..<4).map { PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A\($0)")
                .placeholderForCreatedAssetCollection }
            request.addChildCollections(Array(albums[0..<2]) as NSArray)
            folder = request.placeholderForCreatedCollectionList
        }
        let list = try #require(PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folder!.localIdentifier],
                                                                    options: nil).firstObject)
        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHCollectionListChangeRequest(for: list, childCollections: PHCollection.fetchCollections(in: list, options: nil))!
            request.insertChildCollections([albums[2], albums[3]] as NSArray, at: IndexSet([0, 2]))
        }
        #expect(identifiers(PHCollection.fetchCollections(in: list, options: nil))
                == [albums[2], albums[0], albums[3], albums[1]].map(\.localIdentifier))
        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHCollectionListChangeRequest(for: list)!
            request.replaceChildCollections(at: IndexSet(integer: 1), withChildCollections: [albums[0]] as NSArray)
            request.removeChildCollections(at: IndexSet(integer: 0))
        }
        #expect(identifiers(PHCollection.fetchCollections(in: list, options: nil))
                == [albums[0], albums[3], albums[1]].map(\.localIdentifier))
    }

    @Test func fiveHundredThumbnailsShareTwoConnections() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let assets = try PhotosDaemon.importAssets(try PhotosDaemon.photos(25, in: directory, year: 2020, width: 64))
        let manager = PHCachingImageManager()
        manager.startCachingImages(for: assets, targetSize: CGSize(width: 32, height: 32), contentMode: .aspectFill, options: nil)
        // Counted in the shared pool rather than as the process's sockets: tests beside this one open their own. Read as
        // each image comes, while its connection is open (requests go out in the background: a loaded machine may
        // queue all 500 before the first connection opens).
        let peak = Maximum()
        let delivered = Counter()
        for _ in 0..<20 {
            for asset in assets {
                manager.requestImage(for: asset, targetSize: CGSize(width: 32, height: 32), contentMode: .aspectFill,
                                     options: nil) { _, info in
                    peak.record(ImageConnections.shared.openConnections)
                    if info?[PHImageResultIsDegradedKey] as? Bool != true { delivered.increment() }
                }
            }
        }
        #expect(try await eventually { delivered.value == 500 })
        #expect((1...2).contains(peak.value), "image requests held \(peak.value) connections")
    }
}

/// A count that handlers on any thread add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// The largest of the values recorded from any thread.
final class Maximum: @unchecked Sendable {
    private let lock = NSLock()
    private var largest = 0

    func record(_ value: Int) { lock.withLock { largest = Swift.max(largest, value) } }
    var value: Int { lock.withLock { largest } }
}
