import Imaging
import Synchronization

/// The photos being imported whose first renditions are to be made at once, with the bytes their imports read.
///
/// The ingest leaves a photo here under the id its asset is to get before it commits; the rendition upkeep takes it
/// when the asset's insert reaches it through the change feed and makes its grid rendition, from the bytes when they
/// were kept, so the grid is ready without reading the file again. A photo whose file made no new asset is released
/// after the commit.
package final class ImportedPhotoContents: Sendable {
    /// The bytes kept, taken ones included until their renditions are made: beyond this, a photo is left without
    /// them and its rendition reads its file again.
    package static let byteLimit = 64 << 20

    /// A photo left for its first rendition.
    struct LeftPhoto {
        /// The bytes its import read, or nil when they did not fit in ``byteLimit``.
        var contents: EncodedBuffer?
    }

    private struct Held {
        var byAssetId: [String: LeftPhoto] = [:]
        var byteCount = 0
    }

    private let held = Mutex(Held())

    package init() {}

    /// Leaves the photo about to be inserted as `assetId`, with `contents` if any, unless too many bytes are kept
    /// already.
    func hold(_ contents: EncodedBuffer?, forNewAsset assetId: String) {
        held.withLock { held in
            guard let contents, held.byteCount == 0 || held.byteCount + contents.count <= Self.byteLimit else {
                held.byAssetId[assetId] = LeftPhoto(contents: nil)
                return
            }
            held.byAssetId[assetId] = LeftPhoto(contents: contents)
            held.byteCount += contents.count
        }
    }

    /// Takes the photo left as `assetId`, if one was. Call ``renditionMade(from:)`` with its bytes, if kept, once its
    /// rendition is made.
    func take(_ assetId: String) -> LeftPhoto? {
        held.withLock { $0.byAssetId.removeValue(forKey: assetId) }
    }

    /// The rendition made from taken bytes is done (or failed): they count no more.
    func renditionMade(from contents: EncodedBuffer) {
        held.withLock { $0.byteCount -= contents.count }
    }

    /// Drops the photo left as `assetId`: its file made no new asset under that id.
    func release(_ assetId: String) {
        held.withLock { held in
            if let photo = held.byAssetId.removeValue(forKey: assetId) { held.byteCount -= photo.contents?.count ?? 0 }
        }
    }
}
