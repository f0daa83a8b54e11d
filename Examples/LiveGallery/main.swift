// A live gallery written the way PhotoKit code is written: fetch the library newest first, warm the caching
// image manager for the first screen, show a thumbnail of each photo, and follow every change as it commits.
//
//     swift run live-gallery            # runs until Ctrl-C; drop photos into the drop folder meanwhile
//     swift run live-gallery 30         # stops after 30 seconds
import Foundation
import Photos

/// Writes a line at once. `print` buffers standard output in blocks when it is not a terminal (a pipe, a file), and
/// Ctrl-C would lose what the buffer held.
func writeLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let thumbnailSize = CGSize(width: 256, height: 256)
let firstScreen = 24

/// The gallery: what it shows, kept in step with the library through change details.
final class Gallery: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    private let imageManager = PHCachingImageManager()
    /// Guards `assets` and the lines that show it.
    private let lock = NSLock()
    private var assets: PHFetchResult<PHAsset>

    override init() {
        let newestFirst = PHFetchOptions()
        newestFirst.sortDescriptors = [PHSortDescriptor(key: "creationDate", ascending: false)]
        assets = PHAsset.fetchAssets(with: newestFirst)
        super.init()
        // At once, as PhotoKit apps do: a change is told only to the observers registered when it commits, and one
        // made while the first screen loads would be missed.
        PHPhotoLibrary.shared().register(self)
    }

    /// Lists the first screen. The lock keeps a change's lines from cutting into the listing.
    func show() {
        lock.withLock {
            writeLine("\(assets.count) photos and videos, newest first")
            let screen = assets.objects(at: IndexSet(integersIn: 0..<min(firstScreen, assets.count)))
            imageManager.startCachingImages(for: screen, targetSize: thumbnailSize, contentMode: .aspectFill, options: nil)
            for (index, asset) in screen.enumerated() { showThumbnail(of: asset, at: index) }
            if assets.count > firstScreen { writeLine("… and \(assets.count - firstScreen) more") }
        }
    }

    /// Prints one line for the asset's thumbnail. A listing wants each photo once and in order: the request asks
    /// for the final image only and waits for it (an app on screen would take the fast degraded image first).
    private func showThumbnail(of asset: PHAsset, at index: Int) {
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        options.isSynchronous = true
        let date = asset.creationDate.map { ISO8601DateFormatter().string(from: $0) } ?? "no date"
        imageManager.requestImage(for: asset, targetSize: thumbnailSize, contentMode: .aspectFill, options: options) { image, info in
            if let image {
                writeLine("  [\(index)] \(date)  \(Int(image.size.width))×\(Int(image.size.height))  \(image.fileURL?.path ?? "in memory")")
            } else if let error = info?[PHImageErrorKey] {
                writeLine("  [\(index)] \(date)  no thumbnail: \(error)")
            }
        }
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        lock.withLock {
            guard let details = changeInstance.changeDetails(for: assets) else { return }
            assets = details.fetchResultAfterChanges
            guard details.hasIncrementalChanges else {
                writeLine("The library changed a lot: reloaded, \(assets.count) photos and videos")
                return
            }
            if let removed = details.removedIndexes, !removed.isEmpty { writeLine("Removed at \(Array(removed))") }
            details.enumerateMoves { from, to in writeLine("Moved \(from) → \(to)") }
            for (index, asset) in zip(details.insertedIndexes ?? [], details.insertedObjects) {
                writeLine("Inserted at \(index):")
                showThumbnail(of: asset, at: index)
            }
            if let changed = details.changedIndexes, !changed.isEmpty {
                writeLine("Changed at \(Array(changed))")
                for (index, asset) in zip(changed, details.changedObjects) { showThumbnail(of: asset, at: index) }
            }
        }
    }
}

guard PHPhotoLibrary.authorizationStatus(for: .readWrite) == .authorized else {
    FileHandle.standardError.write(Data("live-gallery: photolibd does not let this user read the library\n".utf8))
    exit(1)
}
let gallery = Gallery()
gallery.show()
if let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) {
    Thread.sleep(forTimeInterval: seconds)
} else {
    dispatchMain()
}
