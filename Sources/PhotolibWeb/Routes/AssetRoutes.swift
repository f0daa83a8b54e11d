import Foundation
import Hummingbird
import PhotoLibrary

/// `GET /api/assets/ID`: what the viewer's info panel shows: `{asset, metadata, albums}` — the contract's `Asset`
/// with its resources and its annotations (stars, keywords, title, caption, and the state of its sidecar), the
/// original's metadata groups (EXIF, GPS, …), and the albums that hold it.
struct AssetRoutes<Context: RequestContext>: Sendable {
    let connections: LibraryConnections

    private struct Info: Encodable {
        var asset: Asset
        var metadata: AssetMetadata?
        var albums: [AlbumReference]
    }

    private struct AlbumReference: Encodable {
        var id: String
        var title: String
    }

    func add(to router: Router<Context>) {
        router.get("/api/assets/:id") { _, context in
            let id = try AssetIdentifier.parameter(of: context)
            var info = try await connections.withLibrary { library throws(PhotoLibraryError) -> Info in
                let query = AssetQuery(ids: [id], includeHidden: true, includeTrashed: true, includeAllBurstAssets: true)
                guard let asset = try await library.fetchAssets(matching: query, includeResources: true).assets.first else {
                    throw PhotoLibraryError(code: .notFound, message: "no asset has the id \(id)")
                }
                let metadata = try? await library.fetchAssetMetadata(for: id)
                let albums = try await library.fetchAllCollections(matching: CollectionQuery(kind: .album, containingAsset: id))
                return Info(asset: asset, metadata: metadata, albums: albums.collections.map { AlbumReference(id: $0.id, title: $0.title) })
            }
            // The page has no use for the library's file paths: a sidecar is shown by its name.
            info.asset.resources = info.asset.resources?.map { resource in
                var resource = resource
                resource.path = nil
                return resource
            }
            if let sidecar = info.asset.sidecar?.path { info.asset.sidecar?.path = (sidecar as NSString).lastPathComponent }
            let body = try JSONEncoder().encode(info)
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
    }
}
