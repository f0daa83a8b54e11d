import Foundation
import Photos
import PhotoLibrary
import Testing
import TestSupport

extension PhotosModuleTests {
    /// PhotoKit's editing round trip as an app writes it: ask for the input, render into the output's URL, commit it
    /// in a change block, later resume the edit from the original with the adjustment data, and revert.
    @Test func anAppEditsResumesAndRevertsAPhoto() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let original = try MarkedPhotos.write(at: directory.file("marked.jpg"), width: 120, height: 80, orientation: 1)
        let asset = try #require(try PhotosDaemon.importAssets([URL(fileURLWithPath: original)]).first)
        #expect(!asset.hasAdjustments)

        let input = try await Self.contentEditingInput(of: asset, options: PHContentEditingInputRequestOptions())
        #expect(input.adjustmentData == nil && input.mediaType == .image && input.uniformTypeIdentifier == "public.jpeg")
        let source = try #require(input.fullSizeImageURL).path
        let output = PHContentEditingOutput(contentEditingInput: input)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "com.example.turner", formatVersion: "1.0",
                                                 data: Data("quarter-turn".utf8))
        try runTool("/usr/bin/vips", ["rot", source, output.renderedContentURL.path, "d90"])
        try PHPhotoLibrary.shared().performChangesAndWait {
            PHAssetChangeRequest(for: asset).contentEditingOutput = output
        }
        let edited = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject)
        #expect(edited.hasAdjustments && edited.pixelWidth == 80 && edited.pixelHeight == 120)
        #expect(edited.modificationDate != asset.modificationDate)

        let stranger = try await Self.contentEditingInput(of: edited, options: PHContentEditingInputRequestOptions())
        #expect(stranger.adjustmentData == nil)
        #expect(try MarkedPhotos.corners(of: try #require(stranger.fullSizeImageURL).path)
                    == MarkedPhotos.Corners(topLeft: .grey, topRight: .red, bottomLeft: .grey))
        let resuming = PHContentEditingInputRequestOptions()
        resuming.canHandleAdjustmentData = { $0.formatIdentifier == "com.example.turner" && $0.formatVersion == "1.0" }
        let author = try await Self.contentEditingInput(of: edited, options: resuming)
        #expect(author.adjustmentData?.data == Data("quarter-turn".utf8))
        #expect(try MarkedPhotos.corners(of: try #require(author.fullSizeImageURL).path) == .upright)

        let unadjusted = PHImageRequestOptions()
        unadjusted.isSynchronous = true
        unadjusted.version = .unadjusted
        var sizes: [CGSize] = []
        for options in [unadjusted, { let current = PHImageRequestOptions(); current.isSynchronous = true; return current }()] {
            PHImageManager.default().requestImage(for: edited, targetSize: PHImageManagerMaximumSize, contentMode: .default,
                                                  options: options) { image, _ in sizes.append(image?.size ?? .zero) }
        }
        #expect(sizes == [CGSize(width: 120, height: 80), CGSize(width: 80, height: 120)])

        try PHPhotoLibrary.shared().performChangesAndWait {
            PHAssetChangeRequest(for: edited).revertAssetContentToOriginal()
        }
        let reverted = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject)
        #expect(!reverted.hasAdjustments && reverted.pixelWidth == 120 && reverted.pixelHeight == 80)
    }

    private static func contentEditingInput(of asset: PHAsset,
                                            options: PHContentEditingInputRequestOptions) async throws -> PHContentEditingInput {
        let box = Unchecked<PHContentEditingInput?>(nil)
        let info = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            _ = asset.requestContentEditingInput(with: options) { input, info in
                box.value = input
                continuation.resume(returning: "\(info)")
            }
        }
        return try #require(box.value, "no input: \(info)")
    }
}

/// A value handed across a callback in a test.
private final class Unchecked<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
