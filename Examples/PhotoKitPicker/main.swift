// A picker written the way iOS photo pickers are (TZImagePickerController, ZLPhotoBrowser, …): the albums with their
// key assets, a grid of the album's photos and videos, a selection of several, then the originals of the selection
// exported, and its videos as 720p MP4s.
//
//     swift run photokit-picker                         # lists the albums
//     swift run photokit-picker 1                       # the grid of album 1
//     swift run photokit-picker 1 2,5,7 ~/Pictures/out  # exports items 2, 5 and 7 of album 1 into the folder
import Foundation
import Photos

let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String, status: Int32 = 64) -> Never {
    FileHandle.standardError.write(Data("photokit-picker: \(message)\n".utf8))
    exit(status)
}

guard PHPhotoLibrary.authorizationStatus(for: .readWrite) == .authorized else {
    fail("photolibd does not let this user read the library", status: 77)
}

/// The albums a picker shows: the user's library and the other smart albums with something in them, then the
/// user's albums, each with its count and key asset.
func albums() -> [PHAssetCollection] {
    var albums: [PHAssetCollection] = []
    let smart = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .albumRegular, options: nil)
    smart.enumerateObjects { album, _, _ in
        if album.assetCollectionSubtype == .smartAlbumUserLibrary { albums.insert(album, at: 0) }
        else if album.estimatedAssetCount > 0 { albums.append(album) }
    }
    PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).enumerateObjects { album, _, _ in
        albums.append(album)
    }
    return albums
}

/// A number from 1 to `count` given as `text`, or the end of the program.
func choice(_ text: String, of count: Int, naming what: String) -> Int {
    guard let number = Int(text), (1...count).contains(number) else { fail("\(what) must be a number from 1 to \(count)") }
    return number - 1
}

let shown = albums()
guard let albumArgument = arguments.first else {
    for (index, album) in shown.enumerated() {
        let key = PHAsset.fetchKeyAssets(in: album, options: nil)?.firstObject
        let cover = key.map { "key asset \($0.originalFilename), \($0.pixelWidth)×\($0.pixelHeight)" } ?? "empty"
        print("\(index + 1). \(album.localizedTitle ?? "Untitled") (\(album.estimatedAssetCount)) — \(cover)")
    }
    exit(0)
}
let album = shown[choice(albumArgument, of: shown.count, naming: "the album")]
let newestFirst = PHFetchOptions()
newestFirst.sortDescriptors = [PHSortDescriptor(key: "creationDate", ascending: false)]
let assets = PHAsset.fetchAssets(in: album, options: newestFirst)

guard arguments.count >= 3 else {
    // The grid: a thumbnail per cell, made by the caching image manager ahead of the scroll.
    let manager = PHCachingImageManager()
    let items = assets.objects(at: IndexSet(integersIn: 0..<assets.count))
    manager.startCachingImages(for: items, targetSize: CGSize(width: 200, height: 200), contentMode: .aspectFill, options: nil)
    let options = PHImageRequestOptions()
    options.isSynchronous = true
    options.deliveryMode = .highQualityFormat
    for (index, asset) in items.enumerated() {
        var cell = "?"
        manager.requestImage(for: asset, targetSize: CGSize(width: 200, height: 200), contentMode: .aspectFill,
                             options: options) { image, _ in
            cell = image.map { "\(Int($0.size.width))×\(Int($0.size.height)) thumbnail" } ?? "no thumbnail"
        }
        let kind = asset.mediaType == .video ? "video \(Int(asset.duration.rounded())) s" : "photo"
        print("\(index + 1). \(asset.originalFilename)  \(kind)  [\(cell)]")
    }
    exit(0)
}

// Several selected: the originals written into the folder, and each video again as a 720p MP4.
let picked = arguments[1].split(separator: ",").map { choice(String($0), of: assets.count, naming: "each item") }
let folder = URL(fileURLWithPath: arguments[2], isDirectory: true)
guard FileManager.default.fileExists(atPath: folder.path) else { fail("the folder \(folder.path) does not exist") }
var failures = 0
for index in picked {
    let asset = assets[index]
    guard let original = PHAssetResource.assetResources(for: asset).first else { continue }
    let destination = folder.appendingPathComponent(original.originalFilename)
    let written = DispatchSemaphore(value: 0)
    PHAssetResourceManager.default().writeData(for: original, toFile: destination, options: nil) { error in
        if let error { print("\(original.originalFilename): \(error.localizedDescription)"); failures += 1 }
        else { print("Wrote \(destination.path)") }
        written.signal()
    }
    written.wait()
    guard asset.mediaType == .video else { continue }
    let sessionReady = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var session: AVAssetExportSession?
    PHImageManager.default().requestExportSession(forVideo: asset, options: nil, exportPreset: AVAssetExportPreset1280x720) {
        made, _ in
        session = made
        sessionReady.signal()
    }
    sessionReady.wait()
    guard let session else { failures += 1; continue }
    let stem = (original.originalFilename as NSString).deletingPathExtension
    session.outputURL = folder.appendingPathComponent("\(stem)-720p.mp4")
    session.outputFileType = .mp4
    let exported = DispatchSemaphore(value: 0)
    session.exportAsynchronously { exported.signal() }
    exported.wait()
    if session.status == .completed { print("Wrote \(session.outputURL!.path)") }
    else { print("\(stem): the 720p export failed: \(session.error?.localizedDescription ?? "cancelled")"); failures += 1 }
}
exit(failures == 0 ? 0 : 1)
