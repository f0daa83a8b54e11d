import Foundation
import Photos
import TestSupport
import Testing

/// The simple PhotoKit members apps call, each called as app code does.
extension PhotosModuleTests {
    @Test func anAssetsAddedDateIsOptionalAsApplesIs() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let before = Date().addingTimeInterval(-1)
        let asset = try #require(try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory)).first)
        if let added = asset.addedDate {
            #expect(added >= before && added <= Date().addingTimeInterval(1))
        } else {
            Issue.record("an asset of the library has no added date")
        }
    }

    @Test func anOutputsAdjustmentDataIsOptionalAndTheInfoKeysAreDeclared() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let asset = try #require(try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory)).first)
        let delivered = await withCheckedContinuation { (continuation: CheckedContinuation<InputDelivery, Never>) in
            asset.requestContentEditingInput(with: nil) { input, info in
                continuation.resume(returning: InputDelivery(input: input, info: info))
            }
        }
        let input = try #require(delivered.input)
        let output = PHContentEditingOutput(contentEditingInput: input)
        #expect(output.adjustmentData == nil)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "com.example.app", formatVersion: "1", data: Data())
        if let adjustment = output.adjustmentData { #expect(adjustment.formatIdentifier == "com.example.app") }

        // A request for an asset that is gone says why under PHContentEditingInputErrorKey.
        let failed = await withCheckedContinuation { (continuation: CheckedContinuation<InputDelivery, Never>) in
            staleAsset("no-such-asset").requestContentEditingInput(with: nil) { input, info in
                continuation.resume(returning: InputDelivery(input: input, info: info))
            }
        }
        #expect(failed.input == nil)
        #expect((failed.info[PHContentEditingInputErrorKey] as? PHPhotosError)?.code == .identifierNotFound)
        #expect(failed.info[PHContentEditingInputCancelledKey] == nil)
        #expect(failed.info[PHContentEditingInputResultIsInCloudKey] == nil)
    }

    @Test func hdrIsAcceptedOnImageAndLivePhotoRequests() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let asset = try PhotosDaemon.livePhoto("IMG_0002", in: directory, width: 100, height: 80)

        let imageOptions = PHImageRequestOptions()
        imageOptions.preferHDR = true
        imageOptions.isSynchronous = true
        imageOptions.resizeMode = .exact
        var size: CGSize?
        PHImageManager.default().requestImage(
            for: asset, targetSize: CGSize(width: 50, height: 50), contentMode: .aspectFit, options: imageOptions
        ) { image, _ in size = image?.size }
        #expect(size == CGSize(width: 50, height: 40))

        let liveOptions = PHLivePhotoRequestOptions()
        liveOptions.preferHDR = true
        let live = LiveDelivery()
        let requestID: PHLivePhotoRequestID = PHImageManager.default().requestLivePhoto(
            for: asset, targetSize: CGSize(width: 50, height: 50), contentMode: .aspectFit, options: liveOptions
        ) { live.set($0, $1) }
        #expect(requestID != PHLivePhotoRequestIDInvalid)
        #expect(try await eventually { live.photo }?.size == CGSize(width: 50, height: 40))
    }

    @Test func pickersReadTheFileNameSizeAndPixelsOfResources() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let url = try #require(try PhotosDaemon.photos(1, in: directory, width: 112).first)
        let asset = try #require(try PhotosDaemon.importAssets([url]).first)
        #expect(asset.value(forKey: "filename") as? String == url.lastPathComponent)
        #expect(asset.value(forKey: "noSuchKey") == nil)

        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(resource.value(forKey: "fileSize") as? Int64 == Int64(bytes))
        #expect(resource.value(forKey: "fileSize") as? Int == bytes)
        #expect(resource.value(forKey: "noSuchKey") == nil)
        #expect(resource.pixelWidth == 112 && resource.pixelHeight == 64)
    }

    @Test func burstPicksPlaybackVariationsAndScreenRecordingsAreAnsweredAsNone() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let asset = try #require(try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory)).first)
        #expect(!asset.burstSelectionTypes.contains(.userPick) && !asset.burstSelectionTypes.contains(.autoPick))
        #expect(asset.playbackVariation == .none)
        #expect(PHAsset.PlaybackVariation(rawValue: 3) == .longExposure)
        #expect(!asset.mediaSubtypes.contains(.videoScreenRecording))
        #expect(PHAssetMediaSubtype.videoScreenRecording.rawValue == 0x80000)
        let recordings = PHAssetCollection.fetchAssetCollections(
            with: .smartAlbum, subtype: .smartAlbumScreenRecordings, options: nil)
        #expect(recordings.count == 0)
        #expect(PHAssetCollectionSubtype.smartAlbumScreenRecordings.rawValue == 220)
    }

    @Test func anAppDiffsTwoFetchResultsItHolds() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let assets = try PhotosDaemon.importAssets(try PhotosDaemon.photos(3, in: directory, year: 2009))
        let before = PHAsset.fetchAssets(withLocalIdentifiers: assets.prefix(2).map(\.localIdentifier), options: nil)
        let after = PHAsset.fetchAssets(withLocalIdentifiers: assets.suffix(2).map(\.localIdentifier), options: nil)
        let details = PHFetchResultChangeDetails(from: before, to: after, changedObjects: [assets[1]])
        #expect(details.hasIncrementalChanges)
        #expect(details.removedObjects.map(\.localIdentifier) == [assets[0].localIdentifier])
        #expect(details.insertedObjects.map(\.localIdentifier) == [assets[2].localIdentifier])
        #expect(details.changedObjects.map(\.localIdentifier) == [assets[1].localIdentifier])
        #expect(details.fetchResultAfterChanges === after)
    }

    @Test func anEditedAssetTellsItsAdjustmentFormat() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let asset = try #require(
            try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory, year: 2011)).first)
        #expect(asset.adjustmentFormatIdentifier == nil)
        let delivered = await withCheckedContinuation { (continuation: CheckedContinuation<InputDelivery, Never>) in
            asset.requestContentEditingInput(with: nil) { input, info in
                continuation.resume(returning: InputDelivery(input: input, info: info))
            }
        }
        let input = try #require(delivered.input)
        let output = PHContentEditingOutput(contentEditingInput: input)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "com.example.flip", formatVersion: "2", data: Data())
        try runTool(
            "/usr/bin/vips",
            ["flip", try #require(input.fullSizeImageURL).path, output.renderedContentURL.path, "vertical"])
        try PHPhotoLibrary.shared().performChangesAndWait {
            PHAssetChangeRequest(for: asset).contentEditingOutput = output
        }
        let edited = try #require(
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject)
        #expect(edited.adjustmentFormatIdentifier == "com.example.flip")
    }

    @Test func anEditingInputTellsItsPlaybackStyleLivePhotoAndDisplayImage() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let asset = try PhotosDaemon.livePhoto("IMG_0005", in: directory, width: 104, height: 78)
        let delivered = await withCheckedContinuation { (continuation: CheckedContinuation<InputDelivery, Never>) in
            asset.requestContentEditingInput(with: nil) { input, info in
                continuation.resume(returning: InputDelivery(input: input, info: info))
            }
        }
        #expect(asset.contentType == .jpeg && asset.adjustmentsState == .none)
        let input = try #require(delivered.input)
        #expect(input.playbackStyle == .livePhoto)
        #expect(input.audiovisualAsset == nil)
        let livePhoto = try #require(input.livePhoto)
        #expect(livePhoto.size == CGSize(width: 104, height: 78))
        #expect(PHAssetResource.assetResources(for: livePhoto).map(\.type) == [.photo, .pairedVideo])
        #expect(input.displaySizeImage?.size == CGSize(width: 104, height: 78))
    }

    @Test func aNewAssetIsCreatedWithItsEditInOneBlock() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let url = try #require(try PhotosDaemon.photos(1, in: directory, year: 2014, width: 120).first)
        var placeholder: PHObjectPlaceholder?
        var rendering: (any Error)?
        try PHPhotoLibrary.shared().performChangesAndWait {
            guard let creation = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url),
                let created = creation.placeholderForCreatedAsset
            else { return }
            let output = PHContentEditingOutput(placeholderForCreatedAsset: created)
            do {
                try runTool("/usr/bin/vips", ["rot", url.path, try output.renderedContentURL(for: .png).path, "d90"])
            } catch {
                rendering = error
            }
            output.adjustmentData = PHAdjustmentData(
                formatIdentifier: "com.example.turn", formatVersion: "1", data: Data())
            creation.contentEditingOutput = output
            placeholder = created
        }
        #expect(rendering == nil)
        let id = try #require(placeholder?.localIdentifier)
        let asset = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject)
        #expect(asset.hasAdjustments)
        #expect(asset.adjustmentFormatIdentifier == "com.example.turn")
        #expect(asset.pixelWidth == 64 && asset.pixelHeight == 120)
        #expect(asset.contentType == .png && asset.adjustmentsState == .userAdjusted)
    }
}

/// What a content-editing request handed its completion handler.
private struct InputDelivery: @unchecked Sendable {
    let input: PHContentEditingInput?
    let info: [AnyHashable: Any]
}
