import Foundation
import Photos
import TestSupport
import Testing

/// The one daemon the `Photos` and `AssetsLibrary` tests share: both modules find the daemon the way programs
/// do, through `PHOTOLIBD_SOCKET`, once per process.
enum PhotosDaemon {
    private static let started = Task<DaemonProcess, any Error> {
        let daemon = try DaemonProcess()
        try await daemon.start()
        daemon.killWhenTestsExit()
        setenv("PHOTOLIBD_SOCKET", daemon.socketPath, 1)
        return daemon
    }

    /// The running daemon, started on first use.
    static func shared() async throws -> DaemonProcess {
        try await started.value
    }

    /// Photos of their own for a test, each a distinct image: `count` JPEGs taken a day apart in `year`.
    static func photos(_ count: Int, in directory: TemporaryDirectory, year: Int = 2021, width: Int = 96) throws
        -> [URL]
    {
        try (0..<count).map { index in
            let path = directory.file("photo-\(UUID().uuidString.prefix(8))-\(index).jpg")
            try ImageFixtures.image(
                at: path, width: width, height: 64,
                exif: [
                    "-DateTimeOriginal=\(year):03:\(String(format: "%02d", index % 28 + 1)) 10:\(String(format: "%02d", index % 60)):00",
                    "-OffsetTimeOriginal=+01:00",
                ])
            return URL(fileURLWithPath: path)
        }
    }

    /// A Live Photo created through a change block from a `width`×`height` JPEG and a one-second movie of 1.6 times its
    /// size, both named `name`.
    static func livePhoto(_ name: String, in directory: TemporaryDirectory, width: Int, height: Int) throws -> PHAsset {
        let photo = try ImageFixtures.image(at: directory.file("\(name).JPG"), width: width, height: height)
        let movie = try VideoFixtures.clip(
            at: directory.file("\(name).MOV"), width: width * 8 / 5, height: height * 8 / 5, seconds: 1)
        var placeholder: PHObjectPlaceholder?
        try PHPhotoLibrary.shared().performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: URL(fileURLWithPath: photo), options: nil)
            request.addResource(with: .pairedVideo, fileURL: URL(fileURLWithPath: movie), options: nil)
            placeholder = request.placeholderForCreatedAsset
        }
        let id = try #require(placeholder?.localIdentifier)
        return try #require(PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject)
    }

    /// Imports files through a change block and returns their assets, in the order of `urls`.
    static func importAssets(_ urls: [URL]) throws -> [PHAsset] {
        var placeholders: [PHObjectPlaceholder] = []
        try PHPhotoLibrary.shared().performChangesAndWait {
            for url in urls {
                let request = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url)
                placeholders.append(request!.placeholderForCreatedAsset!)
            }
        }
        let ids = placeholders.map(\.localIdentifier)
        let fetched = PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil)
        var byId: [String: PHAsset] = [:]
        fetched.enumerateObjects { asset, _, _ in byId[asset.localIdentifier] = asset }
        return ids.compactMap { byId[$0] }
    }
}

/// A change observer that keeps every `PHChange` it is given, in order.
final class RecordingObserver: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var changes: [PHChange] = []

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        lock.withLock { changes.append(changeInstance) }
    }

    /// The changes received so far, removed from the record.
    func take() -> [PHChange] {
        lock.withLock {
            defer { changes = [] }
            return changes
        }
    }

    /// Waits until at least `count` changes arrived (in all, since the last `take`), then takes them.
    func take(atLeast count: Int) async throws -> [PHChange] {
        _ = try await eventually { lock.withLock { changes.count >= count } }
        return take()
    }

    /// Waits for the first change that `matches`, dropping the changes before it (such as late ones of earlier blocks).
    func first(where matches: @escaping @Sendable (PHChange) -> Bool) async throws -> PHChange {
        let change: PHChange? = try await eventually {
            lock.withLock {
                guard let index = changes.firstIndex(where: matches) else { return nil }
                defer { changes.removeFirst(index + 1) }
                return changes[index]
            }
        }
        return try #require(change, "no matching change arrived")
    }
}

/// The identifiers of a fetch result, in order.
func identifiers<T: PHObject>(_ result: PHFetchResult<T>) -> [String] {
    var ids: [String] = []
    result.enumerateObjects { object, _, _ in ids.append(object.localIdentifier) }
    return ids
}

/// Applies change details to what a program shows, as the contract's index rules say: remove the removed and
/// moved-from positions, then place inserted and moved objects at their new positions in ascending order.
func apply<T: PHObject>(_ details: PHFetchResultChangeDetails<T>, to shown: [String]) -> [String] {
    guard details.hasIncrementalChanges else { return identifiers(details.fetchResultAfterChanges) }
    var moves: [(from: Int, to: Int)] = []
    details.enumerateMoves { moves.append(($0, $1)) }
    let vacated = (details.removedIndexes ?? []).union(IndexSet(moves.map(\.from)))
    var result = shown.indices.filter { !vacated.contains($0) }.map { shown[$0] }
    let inserted = zip(details.insertedIndexes ?? [], details.insertedObjects.map(\.localIdentifier)).map { ($0, $1) }
    let moved = moves.map { ($0.to, shown[$0.from]) }
    for (index, id) in (inserted + moved).sorted(by: { $0.0 < $1.0 }) {
        result.insert(id, at: min(index, result.count))
    }
    return result
}
