import Imaging
import Synchronization

/// The bytes of photos being imported, left by the ingest for their first renditions.
///
/// The ingest holds a photo's bytes under the id its asset is to get before it commits; the rendition upkeep takes
/// them when the asset's insert reaches it through the change feed, so the grid is ready without reading the file
/// again. Bytes whose file made no new asset are released after the commit.
final class ImportedPhotoContents: Sendable {
    /// The bytes held, taken ones included until their renditions are made: beyond this, an import's bytes are not
    /// held and the rendition upkeep reads the file again.
    static let byteLimit = 64 << 20

    private struct Held {
        var byAssetId: [String: EncodedBuffer] = [:]
        var byteCount = 0
    }

    private let held = Mutex(Held())

    /// Holds `contents` for the asset about to be inserted as `assetId`, unless too many bytes are held already.
    func hold(_ contents: EncodedBuffer, forNewAsset assetId: String) {
        held.withLock { held in
            guard held.byteCount == 0 || held.byteCount + contents.count <= Self.byteLimit else { return }
            held.byAssetId[assetId] = contents
            held.byteCount += contents.count
        }
    }

    /// The bytes held for `assetId`, for its first rendition; ``renditionMade(from:)`` is called once it is made.
    func take(_ assetId: String) -> EncodedBuffer? {
        held.withLock { $0.byAssetId.removeValue(forKey: assetId) }
    }

    /// The rendition made from taken bytes is done (or failed): they count no more.
    func renditionMade(from contents: EncodedBuffer) {
        held.withLock { $0.byteCount -= contents.count }
    }

    /// Drops the bytes held for `assetId`: its file made no new asset under that id.
    func release(_ assetId: String) {
        held.withLock { held in
            if let contents = held.byAssetId.removeValue(forKey: assetId) { held.byteCount -= contents.count }
        }
    }
}
