import AssetsLibrary
import Foundation
import Photos
import Testing
import TestSupport

extension PhotosModuleTests {
    /// Groups, filters, order, asset URLs and representations, as AssetsLibrary code uses them.
    @Test func assetsLibraryEnumeratesGroupsAndAssetsAndFindsThemByURL() async throws {
        _ = try await PhotosDaemon.shared()
        let library = ALAssetsLibrary()
        let directory = try TemporaryDirectory()
        let path = directory.file("wide-\(UUID().uuidString.prefix(8)).jpg")
        try ImageFixtures.image(at: path, width: 480, height: 320, exif: ["-DateTimeOriginal=2009:07:14 09:30:00", "-Make=Nikon",
                                                                        "-FNumber=2.8", "-ExifVersion=0232"])
        let imageData = try Data(contentsOf: URL(fileURLWithPath: path))

        let albumName = "Holidays \(UUID())"
        let album = try #require(try await callback { done in
            library.addAssetsGroupAlbum(withName: albumName, resultBlock: { done(.success($0)) }, failureBlock: { done(.failure($0!)) })
        })
        let sameName: ALAssetsGroup? = try await callback { done in
            library.addAssetsGroupAlbum(withName: albumName, resultBlock: { done(.success($0)) }, failureBlock: { done(.failure($0!)) })
        }
        #expect(sameName == nil, "an album of that name exists already")
        let assetURL = try #require(try await callback { done in
            library.writeImageData(toSavedPhotosAlbum: imageData, metadata: nil) { url, error in
                done(error.map { .failure($0) } ?? .success(url))
            }
        })
        #expect(assetURL.absoluteString.hasPrefix("assets-library://asset/asset.JPG?id="))
        #expect(assetURL.absoluteString.hasSuffix("&ext=JPG"))
        let asset = try #require(try await callback { done in
            library.asset(for: assetURL, resultBlock: { done(.success($0)) }, failureBlock: { done(.failure($0!)) })
        })
        #expect(album.add(asset))

        // Every group once, the library first, then a nil group that ends the enumeration.
        let groups = try await enumerateGroups(library, ALAssetsGroupAll)
        #expect(groups.last! == nil)
        let named = groups.compactMap { $0 }
        #expect((named.first?.value(forProperty: ALAssetsGroupPropertyType) as? NSNumber)?.intValue == ALAssetsGroupSavedPhotos)
        let found = try #require(named.first { $0.value(forProperty: ALAssetsGroupPropertyName) as? String == albumName })
        #expect(found.numberOfAssets() == 1 && found.isEditable)
        #expect(named.contains { ($0.value(forProperty: ALAssetsGroupPropertyType) as? NSNumber)?.intValue == ALAssetsGroupEvent })
        let albumsOnly = try await enumerateGroups(library, ALAssetsGroupAlbum).compactMap { $0 }
        #expect(albumsOnly.allSatisfy { ($0.value(forProperty: ALAssetsGroupPropertyType) as? NSNumber)?.intValue == ALAssetsGroupAlbum })
        #expect(albumsOnly.count < named.count)

        // A group's URL finds it again; filters select by media type.
        let groupURL = try #require(found.value(forProperty: ALAssetsGroupPropertyURL) as? URL)
        let again = try #require(try await callback { done in
            library.group(for: groupURL, resultBlock: { done(.success($0)) }, failureBlock: { done(.failure($0!)) })
        })
        #expect(again.value(forProperty: ALAssetsGroupPropertyPersistentID) as? String
            == found.value(forProperty: ALAssetsGroupPropertyPersistentID) as? String)
        again.setAssetsFilter(.allVideos())
        #expect(again.numberOfAssets() == 0)
        again.setAssetsFilter(.allPhotos())
        #expect(again.numberOfAssets() == 1)

        // Enumeration ends with nil at NSNotFound; `.reverse` walks the library from its end.
        let savedPhotos = try #require(named.first)
        var forward: [String] = [], backward: [String] = [], endIndex: Int?
        savedPhotos.enumerateAssets { asset, index, _ in
            if let asset { forward.append(asset.defaultRepresentation().url().absoluteString) } else { endIndex = index }
        }
        savedPhotos.enumerateAssets(options: .reverse) { asset, _, _ in
            if let asset { backward.append(asset.defaultRepresentation().url().absoluteString) }
        }
        #expect(endIndex == NSNotFound)
        #expect(forward.count == savedPhotos.numberOfAssets() && backward == forward.reversed())
        #expect(forward.contains(assetURL.absoluteString))
        var visited = 0
        savedPhotos.enumerateAssets { asset, _, stop in
            visited += 1
            if asset != nil { stop?.pointee = true }
        }
        #expect(visited == 1, "a stopped enumeration ends without the nil call")

        // PhotoKit accepts the same URL.
        let viaPhotoKit = PHAsset.fetchAssets(withALAssetURLs: [assetURL], options: nil)
        #expect(viaPhotoKit.count == 1 && viaPhotoKit.firstObject?.pixelWidth == 480)
        let unknown: ALAsset? = try await callback { done in
            library.asset(for: URL(string: "assets-library://asset/asset.JPG?id=nope&ext=JPG")!,
                          resultBlock: { done(.success($0)) }, failureBlock: { done(.failure($0!)) })
        }
        #expect(unknown == nil)

        // Properties and representations.
        #expect(asset.value(forProperty: ALAssetPropertyType) as? String == ALAssetTypePhoto)
        #expect(asset.value(forProperty: ALAssetPropertyAssetURL) as? URL == assetURL)
        #expect(asset.value(forProperty: ALAssetPropertyDuration) as? String == ALErrorInvalidProperty)
        #expect(asset.value(forProperty: ALAssetPropertyRepresentations) as? [String] == ["public.jpeg"])
        let representation = try #require(asset.defaultRepresentation())
        #expect(representation.dimensions() == CGSize(width: 480, height: 320))
        #expect(representation.size() == Int64(imageData.count))
        #expect(representation.uti() == "public.jpeg")
        let metadata = try #require(representation.metadata())
        let exif = try #require(metadata["{Exif}"] as? [String: Any])
        #expect(exif["DateTimeOriginal"] as? String == "2009:07:14 09:30:00" && exif["ExifVersion"] as? String == "0232")
        #expect((exif["FNumber"] as? NSNumber)?.doubleValue == 2.8)
        #expect((metadata["{TIFF}"] as? [String: Any])?["Make"] as? String == "Nikon")
        #expect(metadata["PixelWidth"] as? Int == 480)
        let thumbnail = try #require(asset.thumbnail())
        #expect(thumbnail.size == CGSize(width: 150, height: 150))
        #expect(try #require(asset.aspectRatioThumbnail()).size == CGSize(width: 150, height: 100))
        #expect(try #require(representation.fullResolutionImage()).size == CGSize(width: 480, height: 320))
        #expect(try #require(representation.fullScreenImage()).size.width <= 1920)

        // getBytes reads the original file, in pieces.
        var bytes = [UInt8](repeating: 0, count: imageData.count + 10)
        let head = try bytes.withUnsafeMutableBufferPointer { try representation.getBytes($0.baseAddress!, fromOffset: 0, length: 100) }
        let tail = try bytes.withUnsafeMutableBufferPointer {
            try representation.getBytes($0.baseAddress! + 100, fromOffset: 100, length: imageData.count)
        }
        #expect(head == 100 && tail == imageData.count - 100)
        #expect(Data(bytes.prefix(imageData.count)) == imageData)
    }

    /// `ALAssetsLibraryChangedNotification` carries the URLs of what each committed transaction changed.
    @Test func assetsLibraryPostsTheChangedNotification() async throws {
        _ = try await PhotosDaemon.shared()
        let library = ALAssetsLibrary()
        let received = Received()
        let token = NotificationCenter.default.addObserver(
            forName: NSNotification.Name(ALAssetsLibraryChangedNotification), object: nil, queue: nil
        ) { notification in received.append(notification.userInfo ?? [:]) }
        defer { NotificationCenter.default.removeObserver(token) }

        let directory = try TemporaryDirectory()
        let asset = try #require(try PhotosDaemon.importAssets(try PhotosDaemon.photos(1, in: directory, year: 2010)).first)
        let album = try #require(try await callback { done in
            library.addAssetsGroupAlbum(withName: "Notified \(UUID())", resultBlock: { done(.success($0)) },
                                        failureBlock: { done(.failure($0!)) })
        })
        let albumURL = try #require(album.value(forProperty: ALAssetsGroupPropertyURL) as? URL)
        let assetURL = AssetURLOf(asset)
        let inserted = try #require(try await eventually {
            received.all.first { ($0[ALAssetLibraryInsertedAssetGroupsKey] as? Set<URL>)?.contains(albumURL) == true }
        })
        #expect(inserted[ALAssetLibraryDeletedAssetGroupsKey] == nil)
        // Notifications come in commit order: what arrives from here on is of the change below.
        let earlier = received.all.count

        try PHPhotoLibrary.shared().performChangesAndWait {
            PHAssetChangeRequest(for: asset).isFavorite = true
        }
        let updated = try #require(try await eventually {
            received.all.dropFirst(earlier).first { ($0[ALAssetLibraryUpdatedAssetsKey] as? Set<URL>)?.contains(assetURL) == true }
        })
        #expect(updated[ALAssetLibraryInsertedAssetGroupsKey] == nil)
    }
}

/// The URL AssetsLibrary gives a PhotoKit asset, built as a program would from the asset's resource name.
private func AssetURLOf(_ asset: PHAsset) -> URL {
    let ext = (asset.asset.originalFilename as NSString).pathExtension.uppercased()
    return URL(string: "assets-library://asset/asset.\(ext)?id=\(asset.localIdentifier)&ext=\(ext)")!
}

/// Notifications' user info, kept in arrival order.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var infos: [[AnyHashable: Any]] = []

    func append(_ info: [AnyHashable: Any]) { lock.withLock { infos.append(info) } }
    var all: [[AnyHashable: Any]] { lock.withLock { infos } }
}

/// Waits for an AssetsLibrary call that answers through blocks.
func callback<Value: Sendable>(_ call: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        call { continuation.resume(with: $0) }
    }
}

/// The groups an enumeration hands its block, the closing nil included.
private func enumerateGroups(_ library: ALAssetsLibrary, _ types: ALAssetsGroupType) async throws -> [ALAssetsGroup?] {
    try await withCheckedThrowingContinuation { continuation in
        var collected: [ALAssetsGroup?] = []
        library.enumerateGroupsWithTypes(types, usingBlock: { group, _ in
            collected.append(group)
            if group == nil { continuation.resume(returning: collected) }
        }, failureBlock: { continuation.resume(throwing: $0!) })
    }
}
