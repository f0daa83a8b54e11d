import AssetsLibrary
import Foundation
import Photos
import PhotoLibrary
import Testing
import TestSupport

extension PhotosModuleTests {
    /// Saving images with their metadata, the unrotated full-resolution image, and edits by setImageData.
    @Test func assetsLibraryWritesMetadataIntoSavedImagesAndKeepsEditsBesideOriginals() async throws {
        _ = try await PhotosDaemon.shared()
        let library = ALAssetsLibrary()
        let directory = try TemporaryDirectory()
        let changed = NotificationBox()
        let observer = NotificationCenter.default.addObserver(forName: .ALAssetsLibraryChanged, object: nil, queue: nil) { _ in
            changed.mark()
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        // A PHImage saved with metadata: the file the library keeps carries it.
        let source = try ImageFixtures.image(at: directory.file("source.jpg"), width: 90, height: 60)
        let image = try #require(PHImage(contentsOfFile: source))
        let metadata: [AnyHashable: Any] = [
            "{TIFF}": ["Make": "Leica", "Model": "Q3"],
            "{Exif}": ["DateTimeOriginal": "2019:04:05 06:07:08"],
            "{GPS}": ["Latitude": 45.5, "LatitudeRef": "S", "Longitude": 10.25, "LongitudeRef": "E"],
        ]
        let url = try #require(try await callback { done in
            library.writeImage(toSavedPhotosAlbum: image, metadata: metadata) { url, error in
                done(error.map { .failure($0) } ?? .success(url))
            }
        })
        let saved = try #require(PHAsset.fetchAssets(withALAssetURLs: [url], options: nil).firstObject)
        #expect(saved.location.map { ($0.coordinate.latitude, $0.coordinate.longitude) }! == (-45.5, 10.25))
        #expect(saved.creationDate != nil)
        let client = try await PhotoLibrary.connect()
        let written = try await client.fetchAssetMetadata(for: saved.localIdentifier)
        await client.close()
        #expect(written.tiff["Make"] == "Leica" && written.tiff["Model"] == "Q3")
        #expect(written.exif["DateTimeOriginal"] == "2019:04:05 06:07:08")
        #expect(try await eventually { changed.isMarked })

        // The orientation of a CGImage-style write is how the saved pixels are shown.
        let turnedURL = try #require(try await callback { done in
            library.writeImage(toSavedPhotosAlbum: image, orientation: .right) { url, error in
                done(error.map { .failure($0) } ?? .success(url))
            }
        })
        let turned = try #require(try await callback { done in
            library.asset(for: turnedURL, resultBlock: { done(.success($0)) }, failureBlock: { done(.failure($0!)) })
        })
        let representation = try #require(turned.defaultRepresentation())
        #expect(representation.orientation() == .right && representation.dimensions() == CGSize(width: 60, height: 90))
        // The full-resolution image is the pixels as stored, not turned; the orientation says how to show them.
        let full = try #require(representation.fullResolutionImage())
        #expect(full.size == CGSize(width: 90, height: 60) && full.imageOrientation == .right)
        #expect(try #require(representation.fullScreenImage()).size == CGSize(width: 60, height: 90))

        // setImageData keeps an edit beside the original.
        #expect(turned.isEditable)
        let replacement = try Data(contentsOf: URL(fileURLWithPath: try ImageFixtures.image(at: directory.file("new.jpg"),
                                                                                             width: 30, height: 20)))
        let editedURL = try #require(try await callback { done in
            turned.setImageData(replacement, metadata: nil) { url, error in done(error.map { .failure($0) } ?? .success(url)) }
        })
        #expect(editedURL == turnedURL)
        let edited = try #require(PHAsset.fetchAssets(withALAssetURLs: [turnedURL], options: nil).firstObject)
        #expect(edited.hasAdjustments && edited.pixelWidth == 30 && edited.pixelHeight == 20)
    }
}

/// Whether a notification came.
final class NotificationBox: @unchecked Sendable {
    private let lock = NSLock()
    private var marked = false

    func mark() { lock.withLock { marked = true } }
    var isMarked: Bool { lock.withLock { marked } }
}
