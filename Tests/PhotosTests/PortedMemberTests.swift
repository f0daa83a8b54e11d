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
}

/// What a content-editing request handed its completion handler.
private struct InputDelivery: @unchecked Sendable {
    let input: PHContentEditingInput?
    let info: [AnyHashable: Any]
}
