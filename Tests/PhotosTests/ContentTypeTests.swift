import Foundation
import Photos
import TestSupport
import Testing

/// `contentType` as apps read and set it: `UTType`s of resources, of creation options and of content editing.
extension PhotosModuleTests {
    @Test func eachKindOfFileHasItsContentType() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let images: [(String, UTType)] = [
            ("jpg", .jpeg), ("png", .png), ("tif", .tiff), ("webp", .webP), ("gif", .gif),
        ]
        let urls = try images.enumerated().map { index, image in
            URL(
                fileURLWithPath: try ImageFixtures.image(
                    at: directory.file("kind-\(index).\(image.0)"), width: 50 + index))
        }
        let assets = try PhotosDaemon.importAssets(urls)
        #expect(assets.count == images.count)
        for (asset, image) in zip(assets, images) {
            let resource = try #require(PHAssetResource.assetResources(for: asset).first)
            #expect(resource.contentType == image.1)
            #expect(resource.contentType.conforms(to: .image) && resource.uniformTypeIdentifier == image.1.identifier)
        }

        var placeholders: [PHObjectPlaceholder?] = []
        for (name, width) in [("clip.mp4", 160), ("clip.mov", 176)] {
            let clip = try VideoFixtures.clip(at: directory.file(name), width: width, height: 120, seconds: 1)
            try PHPhotoLibrary.shared().performChangesAndWait {
                placeholders.append(
                    PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: URL(fileURLWithPath: clip))?
                        .placeholderForCreatedAsset)
            }
        }
        let videos = try placeholders.map { placeholder in
            try #require(
                PHAsset.fetchAssets(withLocalIdentifiers: [placeholder!.localIdentifier], options: nil).firstObject)
        }
        let videoTypes = videos.compactMap { PHAssetResource.assetResources(for: $0).first?.contentType }
        #expect(videoTypes == [.mpeg4Movie, .quickTimeMovie])
        #expect(videoTypes.allSatisfy { $0.conforms(to: .movie) && !$0.conforms(to: .image) })
    }

    @Test func bytesTakeTheirFormatFromTheCreationOptionsContentType() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let png = try Data(
            contentsOf: URL(fileURLWithPath: try ImageFixtures.image(at: directory.file("b.png"), width: 77)))
        var placeholder: PHObjectPlaceholder?
        try PHPhotoLibrary.shared().performChangesAndWait {
            let options = PHAssetResourceCreationOptions()
            options.contentType = .png
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: png, options: options)
            placeholder = request.placeholderForCreatedAsset
        }
        let id = try #require(placeholder?.localIdentifier)
        let asset = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        #expect(resource.contentType == .png && resource.originalFilename.hasSuffix(".png"))
    }

    @Test func anEditIsRenderedInTheTypeTheAppChose() async throws {
        _ = try await PhotosDaemon.shared()
        let directory = try TemporaryDirectory()
        let asset = try #require(
            try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory, width: 90)).first)
        let input = try await contentEditingInput(of: asset)
        #expect(input.contentType == .jpeg)
        let output = PHContentEditingOutput(contentEditingInput: input)
        #expect(output.defaultRenderedContentType == .jpeg)
        #expect(output.supportedRenderedContentTypes.contains(.png))
        #expect(throws: PHPhotosError.self) { try output.renderedContentURL(for: .quickTimeMovie) }

        let rendered = try output.renderedContentURL(for: .png)
        #expect(rendered.pathExtension == "png")
        try runTool("/usr/bin/vips", ["flip", try #require(input.fullSizeImageURL).path, rendered.path, "horizontal"])
        output.adjustmentData = PHAdjustmentData(
            formatIdentifier: "com.example.mirror", formatVersion: "1", data: Data())
        try PHPhotoLibrary.shared().performChangesAndWait {
            PHAssetChangeRequest(for: asset).contentEditingOutput = output
        }
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        var dataUTI: String?
        PHImageManager.default().requestImageDataAndOrientation(for: asset, options: options) { _, uti, _, _ in
            dataUTI = uti
        }
        #expect(dataUTI == UTType.png.identifier)
    }

    private func contentEditingInput(of asset: PHAsset) async throws -> PHContentEditingInput {
        let delivered = await withCheckedContinuation {
            (continuation: CheckedContinuation<PHContentEditingInputBox, Never>) in
            asset.requestContentEditingInput(with: nil) { input, _ in
                continuation.resume(returning: PHContentEditingInputBox(input))
            }
        }
        return try #require(delivered.input)
    }
}

/// A content-editing input handed out of its completion handler.
private struct PHContentEditingInputBox: @unchecked Sendable {
    let input: PHContentEditingInput?
    init(_ input: PHContentEditingInput?) { self.input = input }
}
