import Foundation
import Photos
import Testing
import TestSupport

/// The library object: authorization by access level, change tokens that survive a restart, observers held weakly.
extension PhotosModuleTests {
    @Test func theLibraryAnswersAtBothAccessLevels() async throws {
        _ = try await PhotosDaemon.shared()
        #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .authorized)
        #expect(PHPhotoLibrary.authorizationStatus(for: .addOnly) == .authorized)
        #expect(await PHPhotoLibrary.requestAuthorization(for: .addOnly) == .authorized)
        #expect(PHPhotoLibrary.shared().unavailabilityReason == nil)
    }

    @Test func anArchivedChangeTokenFetchesWhatChangedAfterIt() async throws {
        _ = try await PhotosDaemon.shared()
        let library = PHPhotoLibrary.shared()
        let archived = try NSKeyedArchiver.archivedData(withRootObject: library.currentChangeToken, requiringSecureCoding: true)

        let directory = try TemporaryDirectory()
        let assets = try PhotosDaemon.importAssets(try PhotosDaemon.photos(2, in: directory, year: 2016))
        var albumId: String?
        try await library.performChanges {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Later")
            request.addAssets(assets as NSArray)
            albumId = request.placeholderForCreatedAssetCollection.localIdentifier
            PHAssetChangeRequest(for: assets[0]).isFavorite = true
        }

        let token = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: archived))
        var inserted = Set<String>(), updated = Set<String>(), albums = Set<String>()
        for change in try library.fetchPersistentChanges(since: token) {
            inserted.formUnion(try change.changeDetails(for: .asset).insertedLocalIdentifiers)
            updated.formUnion(try change.changeDetails(for: .asset).updatedLocalIdentifiers)
            albums.formUnion(try change.changeDetails(for: .assetCollection).insertedLocalIdentifiers)
        }
        #expect(inserted.isSuperset(of: assets.map(\.localIdentifier)))
        let album = try #require(albumId)
        #expect(updated.contains(assets[0].localIdentifier) && albums == [album])

        // Another library's token (a program moved to another machine): expired, as Apple's codes have it.
        do {
            _ = try library.fetchPersistentChanges(since: PHPersistentChangeToken("v1:another-library:3"))
            Issue.record("another library's token was accepted")
        } catch PHPhotosError.persistentChangeTokenExpired {
            // As on Apple's platforms: fetch the library again.
        }
    }

    @Test func anObserverReleasedWithoutUnregisteringIsDeallocated() async throws {
        _ = try await PhotosDaemon.shared()
        weak var released: RecordingObserver?
        do {
            let observer = RecordingObserver()
            PHPhotoLibrary.shared().register(observer)
            released = observer
        }
        #expect(released == nil)
        // The library goes on delivering to the observers still there.
        let kept = RecordingObserver()
        PHPhotoLibrary.shared().register(kept)
        let directory = try TemporaryDirectory()
        _ = try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory, year: 2017))
        #expect(try await kept.take(atLeast: 1).count >= 1)
        PHPhotoLibrary.shared().unregisterChangeObserver(kept)
    }

    @Test func errorsAreApplesWithTheDaemonsReason() async throws {
        _ = try await PhotosDaemon.shared()
        do {
            try PHPhotoLibrary.shared().performChangesAndWait {
                PHAssetChangeRequest.deleteAssets([staleAsset("no-such-asset")] as NSArray)
            }
            Issue.record("an unknown asset was deleted")
        } catch let error as PHPhotosError {
            #expect(error.code == .identifierNotFound && error.errorCode == 3201)
            #expect(PHPhotosError.errorDomain == PHPhotosErrorDomain && error.localizedDescription.contains("no-such-asset"))
            #expect((error as NSError).domain == "PHPhotosErrorDomain" && (error as NSError).code == 3201)
        }
    }
}
